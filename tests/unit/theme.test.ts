import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { THEME_COOKIE, themeCookie, themeFromCookieHeader } from "../../app/lib/theme.ts";

const STYLES = path.resolve(import.meta.dirname, "../../app/styles");

describe("the theme cookie", () => {
  it("reads light or dark, and follows the system for anything else", () => {
    expect(themeFromCookieHeader("theme=dark")).toBe("dark");
    expect(themeFromCookieHeader("XSRF-TOKEN=abc; theme=light; other=1")).toBe("light");
    for (const header of [null, "", "theme=", "theme=blue", "theme=Dark", "xtheme=dark"]) {
      expect(themeFromCookieHeader(header), String(header)).toBeNull();
    }
    expect(themeFromCookieHeader('theme="><script>')).toBeNull();
  });

  it("is remembered for a year when chosen, and deleted for the system setting", () => {
    expect(themeCookie("dark", false)).toBe(
      `${THEME_COOKIE}=dark; Max-Age=31536000; Path=/; SameSite=Lax`,
    );
    expect(themeCookie(null, true)).toBe(
      `${THEME_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax; Secure`,
    );
  });
});

/** The declarations of the first rule whose selector is exactly `selector`, in source order. */
function declarations(css: string, selector: string): string[] {
  const start = css.indexOf(`${selector} {`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(start + selector.length + 2, css.indexOf("}", start));
  return body
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split(";")
    .map((line) => line.trim())
    .filter(Boolean);
}

describe("the stylesheets' colours", () => {
  const app = fs.readFileSync(path.join(STYLES, "app.css"), "utf8");

  it("give the chosen dark theme and the system's dark setting the same values", () => {
    // Each colour is written once, light-dark(light, dark): the chosen themes and the system's
    // setting only pick the colour scheme that chooses between the two.
    const themed = declarations(app, ":root").filter((d) => d.includes("light-dark("));
    expect(themed.length).toBeGreaterThan(20);
    expect(declarations(app, ":root")).toContain("color-scheme: light dark");
    expect(declarations(app, ':root[data-theme="dark"]')).toEqual(["color-scheme: dark"]);
    expect(declarations(app, ':root[data-theme="light"]')).toEqual(["color-scheme: light"]);
    expect(app).not.toMatch(/prefers-color-scheme/);
  });

  it("redefine in dark only variables the light theme defines", () => {
    // A dark value stands only beside its light one, in the light theme's own variables.
    const variables = app.slice(app.indexOf(":root {"), app.indexOf("}", app.indexOf(":root {")));
    const everywhere = app.match(/light-dark\(/g) ?? [];
    expect(variables.match(/light-dark\(/g) ?? []).toHaveLength(everywhere.length);
    for (const file of fs.readdirSync(STYLES).filter((name) => name !== "app.css")) {
      expect(fs.readFileSync(path.join(STYLES, file), "utf8"), file).not.toMatch(
        /light-dark\(|data-theme|prefers-color-scheme/,
      );
    }
  });

  // Raw colours belong in the theme variables only, so that both themes reach every rule.
  it.each(fs.readdirSync(STYLES).filter((file) => file.endsWith(".css")))(
    "%s uses the theme variables for every colour",
    (file) => {
      let css = fs.readFileSync(path.join(STYLES, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      if (file === "app.css") {
        // The variable definitions themselves.
        css = css.replace(/:root(?:\[data-theme="(?:dark|light)"\])? \{[^}]*\}/g, "");
      }
      const raw = css.match(/#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(|:\s*(?:white|black)\s*;/gi) ?? [];
      expect(raw).toEqual([]);
    },
  );
});
