import { describe, expect, it } from "vitest";
import {
  MIGRATION_LOCK_TIMEOUT,
  migrationFiles,
  migrationStatements,
  runsAlone,
  type MigrationFile,
  type MigrationStatement,
} from "./migrate.ts";

/**
 * Every migration file against the rules that keep a large site taking writes while it upgrades
 * (docs/decisions/0097-safe-upgrades.md): on the big tables, indexes are built CONCURRENTLY outside
 * a transaction, backfills go in committed batches, and constraints are validated apart; every
 * statement runs under a lock_timeout. A rule broken on purpose is listed in EXCEPTIONS, with its
 * reason.
 */

/** The tables that hold a row per deal, comment or vote: a million and more on a large site. */
const BIG_TABLES = new Set(["posts", "comments", "likes"]);

/** Deliberate exceptions: file → rule → why. */
const EXCEPTIONS: Record<string, Partial<Record<Rule, string>>> = {
  "001_initial.sql": {
    "concurrent index": "it creates the tables it indexes: they are empty when it runs",
  },
};

type Rule =
  "concurrent index" | "batched backfill" | "validated apart" | "lock_timeout" | "idempotent alone";

interface Finding {
  file: string;
  rule: Rule;
  statement: string;
}

const firstLine = (statement: MigrationStatement) =>
  statement.text
    .split("\n")
    .find((line) => line.trim() && !line.trim().startsWith("--"))
    ?.trim() ?? "";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's node union
const relationOf = (body: any): string | undefined => body?.relation?.relname;

/** The text of a DO block's body, where a batched backfill loops and commits. */
function doBody(statement: MigrationStatement): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's node union
  const args: any[] = statement.node.DoStmt?.args ?? [];
  return args.map((a) => a.DefElem?.arg?.String?.sval ?? "").join("\n");
}

const BIG_TABLE_UPDATE = /\bUPDATE\s+(posts|comments|likes)\b/i;

async function findings(file: MigrationFile): Promise<Finding[]> {
  const found: Finding[] = [];
  const flag = (rule: Rule, statement: MigrationStatement) =>
    found.push({ file: file.name, rule, statement: firstLine(statement) });
  let ownLockTimeout = false;

  for (const statement of await migrationStatements(file.text)) {
    const body = statement.node[statement.kind];
    switch (statement.kind) {
      case "IndexStmt":
        // Without CONCURRENTLY the build holds every write to the table for as long as it takes;
        // CONCURRENTLY runs only outside a transaction; IF NOT EXISTS lets a failed run go again.
        if (
          BIG_TABLES.has(relationOf(body) ?? "") &&
          (!body.concurrent || !body.if_not_exists || file.transaction)
        )
          flag("concurrent index", statement);
        break;
      case "UpdateStmt":
        // One UPDATE of a whole big table locks every row it changes until it commits.
        if (BIG_TABLES.has(relationOf(body) ?? "")) flag("batched backfill", statement);
        break;
      case "DoStmt": {
        // A DO block that writes a big table does it in a loop that commits after each batch.
        const code = doBody(statement);
        if (BIG_TABLE_UPDATE.test(code) && (!/\bLOOP\b/i.test(code) || !/\bCOMMIT\b/i.test(code)))
          flag("batched backfill", statement);
        break;
      }
      case "AlterTableStmt": {
        // A CHECK or foreign key added to a big table with its rows is checked under the
        // strongest lock; added NOT VALID and validated apart, the scan lets writes through.
        if (!BIG_TABLES.has(relationOf(body) ?? "")) break;
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's node union
        for (const command of (body.cmds ?? []) as any[]) {
          const cmd = command.AlterTableCmd;
          if (cmd?.subtype !== "AT_AddConstraint") continue;
          const constraint = cmd.def?.Constraint;
          if (
            ["CONSTR_CHECK", "CONSTR_FOREIGN"].includes(constraint?.contype) &&
            !constraint?.skip_validation
          )
            flag("validated apart", statement);
        }
        break;
      }
      case "DropStmt":
        // Run alone and recorded after: run twice, it must find nothing to drop.
        if (body.concurrent && !body.missing_ok) flag("idempotent alone", statement);
        break;
      case "VariableSetStmt":
        if (body.name === "lock_timeout") {
          ownLockTimeout = true;
          // 0 (or its default, 0) waits for ever.
          const value = body.args?.[0]?.A_Const;
          const setting = value?.sval ? String(value.sval.sval) : String(value?.ival?.ival ?? 0);
          if (body.kind !== "VAR_SET_VALUE" || /^0(ms|s|min)?$/.test(setting.trim()))
            flag("lock_timeout", statement);
        }
        break;
    }
    if (file.transaction && runsAlone(statement) && statement.kind !== "DoStmt") {
      // Such a statement fails or holds its lock to the end in a file run as one transaction.
      flag("idempotent alone", statement);
    }
  }
  // Every file runs under the runner's lock_timeout unless it sets its own (checked above).
  if (!ownLockTimeout && !/^[1-9]\d*(ms|s)$/.test(MIGRATION_LOCK_TIMEOUT)) {
    found.push({ file: file.name, rule: "lock_timeout", statement: "(the runner's)" });
  }
  return found.filter((f) => !EXCEPTIONS[f.file]?.[f.rule]);
}

describe("migration files", () => {
  const files = migrationFiles();

  it("build indexes on the big tables concurrently, backfill in batches, validate apart, under a lock_timeout", async () => {
    const all = (await Promise.all(files.map(findings))).flat();
    expect(all).toEqual([]);
  });

  it("that run outside a transaction have a statement that needs it", async () => {
    for (const file of files.filter((f) => !f.transaction)) {
      const statements = await migrationStatements(file.text);
      expect(statements.some(runsAlone), `${file.name} has nothing that runs alone`).toBe(true);
    }
  });

  it("list only exceptions that are still needed", async () => {
    for (const [name, rules] of Object.entries(EXCEPTIONS)) {
      const file = files.find((f) => f.name === name);
      expect(file, name).toBeDefined();
      const saved = EXCEPTIONS[name];
      EXCEPTIONS[name] = {};
      try {
        const broken = new Set((await findings(file!)).map((f) => f.rule));
        for (const rule of Object.keys(rules)) expect(broken, `${name}: ${rule}`).toContain(rule);
      } finally {
        EXCEPTIONS[name] = saved!;
      }
    }
  });

  it("are caught breaking each rule", async () => {
    const bad: MigrationFile = {
      name: "900_bad.sql",
      transaction: true,
      text: [
        "CREATE INDEX posts_bad_idx ON posts (title);",
        "UPDATE posts SET title = upper(title);",
        "ALTER TABLE likes ADD CONSTRAINT likes_bad_check CHECK (weight > 0);",
        "SET lock_timeout = 0;",
        "DO $$ BEGIN UPDATE comments SET body = body; END $$;",
      ].join("\n"),
    };
    const rules = (await findings(bad)).map((f) => f.rule).sort();
    expect(rules).toEqual([
      "batched backfill",
      "batched backfill",
      "concurrent index",
      "lock_timeout",
      "validated apart",
    ]);
  });
});
