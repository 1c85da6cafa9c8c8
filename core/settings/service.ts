import { TtlCache } from "../cache/ttl-cache.ts";
import type { Deps } from "../deps.ts";
import { DEFAULT_DESCRIPTION, DEFAULT_SITE_NAME } from "./defaults.ts";
import * as repo from "./repository.ts";

export interface SiteSettings {
  websiteName: string;
  logo: string;
  keywords: string;
  /** The site's default meta description. */
  description: string;
  /** The navigation bar's fixed Educators link, /educator/{unique_id}/{slug}, or /educator. */
  educatorLink: string;
  footer: {
    playstoreUrl: string;
    appStoreUrl: string;
    playStoreImage: string;
    appStoreImage: string;
    copyrightText: string;
  }[];
  social: { id: number; name: string; url: string; icon: string }[];
}

/**
 * Site settings, footer and social links: read on every page, so kept in the process for a minute,
 * and dropped when a writer reports a change of settings, or of posts (the Educators link names a
 * live post).
 */
export function createSettingsService({ db, changes, now }: Deps) {
  const cache = new TtlCache<SiteSettings>(60_000, 1);
  changes.on(["settings", "posts"], () => cache.clear());

  async function load(): Promise<SiteSettings> {
    const [general, footer, social] = await Promise.all([
      repo.findGeneralSettings(db),
      repo.findFooterSettings(db),
      repo.findSocialLinks(db),
    ]);
    return {
      websiteName: general?.website_name || DEFAULT_SITE_NAME,
      logo: general?.website_logo ?? "",
      keywords: general?.website_keywords ?? "",
      description: general?.website_description || DEFAULT_DESCRIPTION,
      educatorLink:
        general?.educator_unique_id && general.educator_slug
          ? `/educator/${general.educator_unique_id}/${general.educator_slug}`
          : "/educator",
      footer: footer.map((f) => ({
        playstoreUrl: f.playstore_url,
        appStoreUrl: f.app_store_url,
        playStoreImage: f.play_store_image,
        appStoreImage: f.app_store_image,
        copyrightText: f.copyright_text,
      })),
      social: social.map((s) => ({
        id: s.id,
        name: s.name,
        url: s.social_url,
        icon: s.social_image,
      })),
    };
  }

  return {
    get: () => cache.get("settings", load),
    /** Changes the general settings (name, logo, keywords, description, Educators post). */
    async updateGeneral(change: repo.GeneralSettingsChange) {
      await repo.saveGeneralSettings(db, change, now());
      changes.emit("settings");
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
