import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import {
  BlockedDomainBody,
  SETTINGS_MESSAGES,
  SettingsBody,
  SiteImageBody,
} from "../../core/settings/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  ConsoleBlockedDomainResponse,
  ConsoleSettingsResponse,
  ConsoleSettingsSavedResponse,
  ConsoleSiteImageResponse,
} from "../../core/settings/responses.ts";

/** The console's settings page (administrators): site settings, footer, moderation, blocked domains. */
export const adminSettingsApi: ApiModule = async (app, { services }) => {
  const settings = services.settings;

  apiRoute(app, {
    method: "GET",
    url: "/admin/settings",
    tag: "Console",
    summary: "Every site setting as stored, and the blocked link domains",
    response: ConsoleSettingsResponse,
    auth: "admin",
    handler: async ({ request }) => ({
      status: "true",
      ...(await settings.editable(request.user)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/settings",
    tag: "Console",
    summary:
      "Saves the fields sent (general settings, footer, moderation); a field left out keeps its " +
      "value, and nothing is saved unless every field sent is valid",
    body: SettingsBody,
    response: ConsoleSettingsSavedResponse,
    auth: "admin",
    handler: async ({ input, request }) => ({
      status: "true",
      message: SETTINGS_MESSAGES.saved,
      ...(await settings.save(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/settings/image",
    tag: "Console",
    summary:
      "Uploads the logo or an app-store badge (multipart: field, image file), checked by its bytes; " +
      "remove=true without a file clears it",
    body: SiteImageBody,
    response: ConsoleSiteImageResponse,
    multipart: { fileField: "image", tooLargeMessage: IMAGE_MESSAGES.tooLarge },
    auth: "admin",
    handler: async ({ input, file, request }) => {
      const { field, url } = await settings.saveImage(request.user, input, file);
      return {
        status: "true",
        message: SETTINGS_MESSAGES.imageSaved(field, Boolean(url)),
        field,
        url,
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/blocked_domains/add",
    tag: "Console",
    summary:
      "Blocks links to a domain and its subdomains in submissions (example.com; a scheme, path or " +
      "www. is dropped)",
    body: BlockedDomainBody,
    response: ConsoleBlockedDomainResponse,
    auth: "admin",
    handler: async ({ input, request }) => {
      const answer = await settings.blockDomain(request.user, input);
      return {
        status: "true",
        message: SETTINGS_MESSAGES.blocked(answer.domain),
        ...answer,
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/blocked_domains/remove",
    tag: "Console",
    summary: "Takes a domain off the blocked list",
    body: BlockedDomainBody,
    response: ConsoleBlockedDomainResponse,
    auth: "admin",
    handler: async ({ input, request }) => {
      const answer = await settings.unblockDomain(request.user, input);
      return {
        status: "true",
        message: SETTINGS_MESSAGES.unblocked(answer.domain),
        ...answer,
      };
    },
  });
};
