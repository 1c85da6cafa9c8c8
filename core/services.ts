import type { Deps } from "./deps.ts";
import { createDealsService } from "./deals/service.ts";
import { createSettingsService } from "./settings/service.ts";

/**
 * Every feature's service, built once per process from the same dependencies. The JSON API and the
 * React Router loaders both receive this object; neither talks to the database itself.
 */
export function createServices(deps: Deps) {
  return {
    settings: createSettingsService(deps),
    deals: createDealsService(deps),
    // feature services: add one line per feature here
  };
}

export type Services = ReturnType<typeof createServices>;
