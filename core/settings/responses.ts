import { z } from "zod";
import { TRUE, isoDateTime, message } from "../responses.ts";

export const GeneralSettingsResponse = z.strictObject({
  status: TRUE,
  general_setting: z.strictObject({
    Website_Name: z.string(),
    Website_Keywords: z.string(),
    Website_Description: z.string(),
  }),
  site_setting: z.array(z.strictObject({ Website_Logo: z.string(), Website_Name: z.string() })),
  footer_setting: z.array(
    z.strictObject({
      Playstore_URL: z.string(),
      App_Store_URL: z.string(),
      play_store_image: z.string(),
      app_store_image: z.string(),
      Copyright_Text: z.string(),
    }),
  ),
  educator_link: z.string(),
});

export const SocialResponse = z.strictObject({
  status: TRUE,
  data: z.array(
    z.strictObject({
      id: z.number(),
      name: z.string(),
      social_url: z.string(),
      social_image: z.string(),
    }),
  ),
});

// Console: settings and blocked link domains ----------------------------------------------------

const ConsoleSettings = z.strictObject({
  settings: z.strictObject({
    website_name: z.string(),
    website_logo: z.string(),
    website_keywords: z.string(),
    website_description: z.string().describe("the default meta description"),
    educator_post_unique_id: z.string().describe("the navigation bar's Educators post"),
    copyright_text: z.string(),
    playstore_url: z.string(),
    app_store_url: z.string(),
    play_store_image: z.string(),
    app_store_image: z.string(),
    report_hide_threshold: z.number().int(),
    hold_new_user_posts: z.boolean(),
    hold_new_user_days: z.number().int(),
    expiry_mark_threshold: z
      .number()
      .int()
      .describe("distinct members whose Expired? marks expire a deal"),
    newcomer_link_posts: z
      .number()
      .int()
      .describe("approved posts that end the newcomer rules; 0: no holds or link caps"),
    newcomer_until_level: z
      .enum(["Member", "Regular", "Trusted"])
      .describe("the level that ends the newcomer rules"),
    newcomer_link_cap: z
      .number()
      .int()
      .describe("the most links in a newcomer's description or comment"),
    app_theme_color: z
      .string()
      .regex(/^#[0-9a-f]{6}$/)
      .describe("the installed app's theme colour: browser bar, manifest, maskable icons"),
    app_background_color: z
      .string()
      .regex(/^#[0-9a-f]{6}$/)
      .describe("the installed app's splash-screen background"),
  }),
  blocked_domains: z.array(
    z.strictObject({ domain: z.string(), added_at: isoDateTime, added_by: z.string() }),
  ),
});

export const ConsoleSettingsResponse = ConsoleSettings.extend({ status: TRUE });

export const ConsoleSettingsSavedResponse = ConsoleSettings.extend(message);

export const ConsoleSiteImageResponse = z.strictObject({
  ...message,
  field: z.enum(["website_logo", "play_store_image", "app_store_image"]),
  url: z.string().describe("'' when removed"),
});

export const ConsoleBlockedDomainResponse = ConsoleSettings.extend({
  ...message,
  domain: z.string(),
});

// Social links ------------------------------------------------------------------------------------

const SocialLinkItem = z.strictObject({
  id: z.number(),
  name: z.string(),
  social_url: z.string(),
  social_image: z.string().describe("the icon's class, e.g. icon-facebook"),
  position: z.number().int(),
});

export const SocialLinksListResponse = z.strictObject({
  status: TRUE,
  items: z.array(SocialLinkItem),
  icons: z.array(z.strictObject({ value: z.string(), label: z.string() })),
});

export const SocialLinkSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  item: SocialLinkItem,
});
