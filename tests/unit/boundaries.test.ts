import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The import boundaries of docs/ARCHITECTURE.md are ESLint rules (eslint.config.js): each case
 * lints a file's text as if it lived at that path and expects the rule to refuse it.
 */
const eslint = new ESLint();

async function rulesBroken(filePath: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.ruleId);
}

describe("import boundaries", () => {
  it.each([
    ["a route module importing the database", "app/routes/home.tsx", 'import "../../db/index.ts";'],
    [
      "a component importing the server",
      "app/components/Pager.tsx",
      'import "../../server/app.ts";',
    ],
    [
      "a route module importing a repository",
      "app/routes/home.tsx",
      'import "../../core/deals/repository.ts";',
    ],
    ["core importing the server", "core/deals/service.ts", 'import "../../server/app.ts";'],
    ["core importing the app", "core/deals/service.ts", 'import "../../app/lib/format.ts";'],
    [
      "a feature importing another feature's repository",
      "core/forums/service.ts",
      'import "../deals/repository.ts";',
    ],
  ])("refuses %s", async (_case, filePath, code) => {
    expect(await rulesBroken(filePath, code)).toContain("import-x/no-restricted-paths");
  });

  it("refuses an import cycle", async () => {
    // repository.ts imports deal-card-query.ts, so the reverse import closes a cycle.
    expect(
      await rulesBroken("core/deals/deal-card-query.ts", 'import "./repository.ts";'),
    ).toContain("import-x/no-cycle");
  });

  it("allows a feature its own repository and another feature's named shared module", async () => {
    expect(
      await rulesBroken(
        "core/forums/service.ts",
        'import "./repository.ts";\nimport "../deals/deal-card-query.ts";',
      ),
    ).toEqual([]);
  });
});
