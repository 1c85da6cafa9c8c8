import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The import boundaries of docs/ARCHITECTURE.md. Directions are ESLint rules (eslint.config.js):
 * each case lints a file's text as if it lived at that path and expects the rule to refuse it.
 * Cycles are found here, over the run-time import graph TypeScript's own parser reads
 * (docs/decisions/0030).
 */
const eslint = new ESLint();

async function rulesBroken(filePath: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.ruleId);
}

const SOURCE_FOLDERS = ["app", "core", "server", "db", "config"];

function sourceFiles(): string[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(folder, file)),
  );
}

/** The relative modules a file loads at run time (`import type` is erased, so it is left out). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    const typeOnly =
      (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) ||
      (ts.isExportDeclaration(statement) && statement.isTypeOnly);
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : null;
    return specifier?.startsWith(".") && !typeOnly ? [specifier] : [];
  });
}

/** Each source file's run-time imports, as paths of other source files. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      runtimeImports(file)
        .map((name) => path.join(path.dirname(file), name))
        .filter((target) => known.has(target)),
    ]),
  );
}

/** Every cycle, as the files that form it (depth-first search; each cycle reported once). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "open") cycles.push(stack.slice(stack.indexOf(target)));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
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
      'import "../../core/cards/repository.ts";',
    ],
    ["core importing the server", "core/home/service.ts", 'import "../../server/app.ts";'],
    ["core importing the app", "core/home/service.ts", 'import "../../app/lib/format.ts";'],
    [
      "a feature importing another feature's repository",
      "core/forums/service.ts",
      'import "../cards/repository.ts";',
    ],
    [
      "a feature importing the repository of the feature it sits in",
      "core/posts/comments/service.ts",
      'import "../repository.ts";',
    ],
    [
      "a feature importing the repository of a feature inside it",
      "core/posts/service.ts",
      'import "./comments/repository.ts";',
    ],
    [
      "a feature inside another importing a third feature's repository",
      "core/posts/comments/service.ts",
      'import "../../cards/repository.ts";',
    ],
    [
      "a feature importing another feature's repository through the alias",
      "core/forums/service.ts",
      'import "#core/posts/repository.ts";',
    ],
  ])("refuses %s", async (_case, filePath, code) => {
    expect(await rulesBroken(filePath, code)).toContain("no-restricted-imports");
  });

  it("allows a feature its own repository and another feature's named shared module", async () => {
    expect(
      await rulesBroken(
        "core/forums/service.ts",
        'import "./repository.ts";\nimport "./console-repository.ts";\nimport "../cards/deal-card-query.ts";',
      ),
    ).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const graph = importGraph(sourceFiles());
    // core/cards/repository.ts imports deal-card-query.ts: the reverse import closes a cycle.
    graph.set("core/cards/deal-card-query.ts", [
      ...(graph.get("core/cards/deal-card-query.ts") ?? []),
      "core/cards/repository.ts",
    ]);
    expect(findCycles(graph).map((cycle) => [...cycle].sort())).toContainEqual([
      "core/cards/deal-card-query.ts",
      "core/cards/repository.ts",
    ]);
  });

  it("has no import cycle among the app, core, server, db and config sources", () => {
    const graph = importGraph(sourceFiles());
    expect(graph.size).toBeGreaterThan(150);
    expect(findCycles(graph)).toEqual([]);
  });
});
