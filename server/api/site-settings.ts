import { presentGeneralSettings, presentSocialLinks } from "../../core/settings/presenter.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { GeneralSettingsResponse, SocialResponse } from "../../core/settings/responses.ts";

export const siteSettingsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/general_settings",
    tag: "Site",
    summary: "Site, general and footer settings",
    response: GeneralSettingsResponse,
    cacheSeconds: 60,
    handler: async () => presentGeneralSettings(await services.settings.get()),
  });

  apiRoute(app, {
    method: "GET",
    url: "/social",
    tag: "Site",
    summary: "Social links of the footer",
    response: SocialResponse,
    cacheSeconds: 60,
    handler: async () => presentSocialLinks(await services.settings.get()),
  });
};
