import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import importX from "eslint-plugin-import-x";
import fs from "node:fs";

// The features of core/: each may read its own repository, never another's (a query two features
// share lives in a module named for what it is, e.g. core/deals/deal-card-query.ts).
const features = fs
  .readdirSync(new URL("./core", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const repositoryOf = (feature) => `./core/${feature}/repository.ts`;

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "data/",
      ".react-router/",
      "test-results/",
      "playwright-report/",
      "public/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Boundaries (docs/ARCHITECTURE.md): app → core through services; core knows neither the
    // HTTP server nor the React app; features keep their SQL to themselves; no import cycles.
    files: ["app/**", "core/**", "server/**", "db/**", "config/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./core",
              from: ["./server", "./app"],
              message:
                "core knows nothing of HTTP or React: move the code into core or up a layer.",
            },
            {
              target: "./app",
              from: ["./db", "./server", ...features.map(repositoryOf)],
              message:
                "Route modules and components reach data through the services in the context.",
            },
            ...features.map((feature) => ({
              target: `./core/${feature}`,
              from: features.filter((other) => other !== feature).map(repositoryOf),
              message:
                "Another feature's repository is its own: call its service, or move the shared query into a named module.",
            })),
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures: `use` is Playwright's callback, not a React hook, and fixtures
    // that need no others take an empty pattern by design.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
);
