import type { SiteSettings } from "./service.ts";

/** `GET /api/general_settings`, in the spec's field names. */
export function presentGeneralSettings(settings: SiteSettings) {
  return {
    status: "true",
    general_setting: {
      Website_Name: settings.websiteName,
      Website_Keywords: settings.keywords,
      Website_Description: settings.description,
    },
    site_setting: [{ Website_Logo: settings.logo, Website_Name: settings.websiteName }],
    footer_setting: settings.footer.map((f) => ({
      Playstore_URL: f.playstoreUrl,
      App_Store_URL: f.appStoreUrl,
      play_store_image: f.playStoreImage,
      app_store_image: f.appStoreImage,
      Copyright_Text: f.copyrightText,
    })),
    educator_link: settings.educatorLink,
  };
}

/** `GET /api/social`. */
export function presentSocialLinks(settings: SiteSettings) {
  return {
    status: "true",
    data: settings.social.map((s) => ({
      id: s.id,
      name: s.name,
      social_url: s.url,
      social_image: s.icon,
    })),
  };
}
