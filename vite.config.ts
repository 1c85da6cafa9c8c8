import { reactRouter } from "@react-router/dev/vite";
import { fastifyReactRouterDev } from "@mcansh/react-router-fastify/vite";
import { defineConfig } from "vite";

const isTest = process.env.VITEST === "true";

export default defineConfig({
  plugins: isTest
    ? []
    : [
        reactRouter(),
        fastifyReactRouterDev({
          entry: "./server/dev-entry.ts",
          externalizeServerEntryImports: ["#app-context"],
        }),
      ],
  build: { target: "es2022" },
});
