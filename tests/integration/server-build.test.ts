import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// docs/decisions/0022: the server build imports core/ and config/ (as #core/…, #config/…) instead of
// carrying a copy of its own, so page loaders and the API share one instance of every core module.

const root = fileURLToPath(new URL("../..", import.meta.url));
const serverBuild = path.join(root, "build/server");

function scripts(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return scripts(file);
    return file.endsWith(".js") ? [file] : [];
  });
}

describe.skipIf(!fs.existsSync(serverBuild))("the server build (npm run build)", () => {
  it("imports core and config from their sources and bundles none of their code", () => {
    const code = scripts(serverBuild).map((file) => fs.readFileSync(file, "utf8"));
    const imports = code.flatMap((text) => [...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!));
    expect(imports).toContain("#core/constants.ts");
    expect(imports).toContain("#core/errors.ts");
    expect(
      imports.filter(
        (specifier) => /(^|\/)(core|config)\//.test(specifier) && !specifier.startsWith("#"),
      ),
    ).toEqual([]);
    for (const text of code) {
      // Class bodies and schemas of core would show up here if they were bundled.
      expect(text).not.toMatch(/class \w*Error extends/);
      expect(text).not.toContain('"Email is required !"');
    }
  });

  it("resolves #core to the very module the server loads", async () => {
    const viaPackageImport = await import("#core/errors.ts");
    const viaSource = await import("../../core/errors.ts");
    expect(viaPackageImport.NotFoundError).toBe(viaSource.NotFoundError);
  });
});
