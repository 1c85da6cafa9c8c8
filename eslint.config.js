import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/** Imports a group of files may not make (docs/ARCHITECTURE.md, "Boundaries"). */
const refuse = (regex, message) => ({ regex, message });
const TO_SERVER = refuse("^(\\.\\./)+server/", "core and app know nothing of the HTTP server.");
const TO_APP = refuse("^(\\.\\./)+app/", "core knows nothing of the React app.");
const TO_DB = refuse(
  "^(\\.\\./)+db/",
  "Route modules and components reach data through the services in the context.",
);
const TO_REPOSITORY = refuse(
  "(^|/)repository(\\.ts)?$",
  "Route modules and components reach data through the services in the context.",
);
// A repository is imported from its own folder only (`./repository.ts`): not from a parent's, a
// child's or a sibling's folder, nor through the `#core` alias.
const TO_OTHER_REPOSITORY = refuse(
  "^((\\.\\.?/)+[^.].*/|(\\.\\./)+|#core/.*/)repository(\\.ts)?$",
  "Another feature's repository is its own: call its service, or move the shared query into a module named for what it is.",
);

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
    // HTTP server nor the React app; each feature's SQL is its own. Import cycles are found by
    // tests/unit/boundaries.test.ts (docs/decisions/0030).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [TO_SERVER, TO_DB, TO_REPOSITORY] }],
    },
  },
  {
    files: ["core/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [TO_SERVER, TO_APP, TO_OTHER_REPOSITORY] }],
    },
  },
  {
    // Playwright fixtures: `use` is Playwright's callback, not a React hook, and fixtures
    // that need no others take an empty pattern by design.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
);
