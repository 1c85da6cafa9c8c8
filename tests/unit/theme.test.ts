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
    const chosen = declarations(app, ':root[data-theme="dark"]');
    const system = declarations(app, ':root:not([data-theme="light"])');
    expect(chosen.length).toBeGreaterThan(20);
    expect(system).toEqual(chosen);
  });

  it("redefine in dark only variables the light theme defines", () => {
    const light = new Set(declarations(app, ":root").map((d) => d.split(":")[0]));
    for (const declaration of declarations(app, ':root[data-theme="dark"]')) {
      expect(light, declaration).toContain(declaration.split(":")[0]);
    }
  });

  // Raw colours belong in the theme variables only, so that both themes reach every rule.
  it.each(fs.readdirSync(STYLES).filter((file) => file.endsWith(".css")))(
    "%s uses the theme variables for every colour",
    (file) => {
      let css = fs.readFileSync(path.join(STYLES, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      if (file === "app.css") {
        // The variable definitions themselves.
        css = css.replace(
          /:root(?:\[data-theme="dark"\]|:not\(\[data-theme="light"\]\))? \{[^}]*\}/g,
          "",
        );
      }
      const raw = css.match(/#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(|:\s*(?:white|black)\s*;/gi) ?? [];
      expect(raw).toEqual([]);
    },
  );
});
