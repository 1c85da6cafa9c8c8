import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { fastifyReactRouterDev } from "@mcansh/react-router-fastify/vite";
import { defineConfig, type Plugin } from "vite";

const isTest = process.env.VITEST === "true";
const root = path.dirname(fileURLToPath(import.meta.url));
/** Folders the server imports from source, mapped to package imports in package.json. */
const SHARED_DIRS = ["core", "config"];

/**
 * Keeps core/ and config/ out of the server build: an import of them becomes `#core/…` or
 * `#config/…`, which Node resolves (package.json "imports") to the very file server/app.ts loads.
 * So pages and the API share one copy of every core module, and `instanceof` works in loaders.
 */
function keepCoreExternal(): Plugin {
  return {
    name: "chalkboard:one-copy-of-core",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (this.environment.name !== "ssr" || !importer || !source.startsWith(".")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      const [dir, ...rest] = path.relative(root, resolved.id).split(path.sep);
      if (!dir || !SHARED_DIRS.includes(dir)) return null;
      return { id: `#${dir}/${rest.join("/")}`, external: true };
    },
  };
}

export default defineConfig({
  plugins: isTest
    ? []
    : [
        keepCoreExternal(),
        reactRouter(),
        fastifyReactRouterDev({
          entry: "./server/dev-entry.ts",
          externalizeServerEntryImports: ["#app-context"],
        }),
      ],
  build: { target: "es2022" },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                  priority: 10,
                },
              ],
            },
          },
        },
      },
    },
  },
});
