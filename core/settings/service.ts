import { changedFields, recordAudit } from "../audit/audit-trail.ts";
import { requireRole } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { TtlCache } from "../cache/ttl-cache.ts";
import type { Deps } from "../deps.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { insertMediaRecord } from "../media/image-records.ts";
import { withStoredImage } from "../media/images.ts";
import { deleteBlockedDomain, insertBlockedDomain, listBlockedDomains } from "./blocked-domains.ts";
import { DEFAULT_DESCRIPTION, DEFAULT_SITE_NAME, SITE_COLORS } from "./defaults.ts";
import { DEFAULT_EXPIRY_MARK_THRESHOLD } from "../posts/expiry/schema.ts";
import {
  DEFAULT_NEWCOMER_RULES,
  newcomerRulesOf,
  type NewcomerRules,
} from "../moderation/newcomer-links.ts";
import * as repo from "./repository.ts";
import {
  SETTINGS_MESSAGES,
  type BlockedDomainInput,
  type SettingsInput,
  type SiteImageInput,
} from "./schema.ts";

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
  /** The installed app's colours, #rrggbb: browser bar and manifest (`theme`), splash screen. */
  colors: { theme: string; background: string };
}

/** What moderation reads: when reports hide an item, and whether new users' posts are held. */
export interface ModerationSettings {
  /** Distinct reporters that hide an item pending review (at least 1). */
  reportHideThreshold: number;
  /** Hold the first post of users younger than `holdNewUserDays` days for review. */
  holdNewUserPosts: boolean;
  holdNewUserDays: number;
  /** Newcomers' links: holds and caps (core/moderation/newcomer-links.ts). */
  newcomer: NewcomerRules;
}

const DEFAULT_MODERATION: ModerationSettings = {
  reportHideThreshold: 3,
  holdNewUserPosts: false,
  holdNewUserDays: 7,
  newcomer: DEFAULT_NEWCOMER_RULES,
};

/** The newcomer rules as the settings page's fields. */
function newcomerFields(rules: NewcomerRules) {
  return {
    newcomer_link_posts: rules.linkPosts,
    newcomer_until_level: rules.untilLevel,
    newcomer_link_cap: rules.linkCap,
  };
}

/** Uploaded site images are at most this many pixels on their longer side. */
const SITE_IMAGE_MAX_SIZE = { website_logo: 800, play_store_image: 400, app_store_image: 400 };

/**
 * Site settings, footer and social links: read on every page, so kept in the process for a minute,
 * and dropped when a writer reports a change of settings, or of posts (the Educators link names a
 * live post).
 */
export function createSettingsService(deps: Deps) {
  const { db, changes, now } = deps;
  const cache = new TtlCache<SiteSettings>(60_000, 1);
  const moderationCache = new TtlCache<ModerationSettings>(60_000, 1);
  changes.on(["settings", "posts"], () => cache.clear());
  changes.on("settings", () => moderationCache.clear());

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
      colors: {
        theme: general?.app_theme_color ?? SITE_COLORS.theme,
        background: general?.app_background_color ?? SITE_COLORS.background,
      },
    };
  }

  async function loadModeration(): Promise<ModerationSettings> {
    const row = await repo.findGeneralSettingsRow(db);
    return row
      ? {
          reportHideThreshold: row.report_hide_threshold,
          holdNewUserPosts: row.hold_new_user_posts,
          holdNewUserDays: row.hold_new_user_days,
          newcomer: newcomerRulesOf(row),
        }
      : DEFAULT_MODERATION;
  }

  /** Every value of the settings page, as stored (not with the public defaults filled in). */
  async function editableSettings() {
    const [general, footer, blocked] = await Promise.all([
      repo.findGeneralSettingsRow(db),
      repo.findFirstFooterRow(db),
      listBlockedDomains(db),
    ]);
    return {
      settings: {
        website_name: general?.website_name ?? DEFAULT_SITE_NAME,
        website_logo: general?.website_logo ?? "",
        website_keywords: general?.website_keywords ?? "",
        website_description: general?.website_description ?? "",
        educator_post_unique_id: general?.educator_post_unique_id ?? "",
        copyright_text: footer?.copyright_text ?? "",
        playstore_url: footer?.playstore_url ?? "",
        app_store_url: footer?.app_store_url ?? "",
        play_store_image: footer?.play_store_image ?? "",
        app_store_image: footer?.app_store_image ?? "",
        report_hide_threshold:
          general?.report_hide_threshold ?? DEFAULT_MODERATION.reportHideThreshold,
        hold_new_user_posts: general?.hold_new_user_posts ?? DEFAULT_MODERATION.holdNewUserPosts,
        hold_new_user_days: general?.hold_new_user_days ?? DEFAULT_MODERATION.holdNewUserDays,
        expiry_mark_threshold: general?.expiry_mark_threshold ?? DEFAULT_EXPIRY_MARK_THRESHOLD,
        ...newcomerFields(newcomerRulesOf(general)),
        app_theme_color: general?.app_theme_color ?? SITE_COLORS.theme,
        app_background_color: general?.app_background_color ?? SITE_COLORS.background,
      },
      blocked_domains: blocked.map((row) => ({
        domain: row.domain,
        added_at: row.created_at.toISOString(),
        added_by: row.created_by_name ?? "",
      })),
    };
  }

  return {
    get: () => cache.get("settings", load),
    /** Moderation's settings (auto-hide threshold, holding new users' posts), cached likewise. */
    moderation: () => moderationCache.get("moderation", loadModeration),
    /** Changes the general settings (name, logo, keywords, description, Educators post). */
    async updateGeneral(change: repo.GeneralSettingsChange) {
      await repo.saveGeneralSettings(db, change, now());
      changes.emit("settings");
    },

    /** `GET /api/admin/settings` (administrators). */
    async editable(user: CurrentUser | null) {
      requireRole(user, "admin");
      return editableSettings();
    },

    /**
     * `POST /api/admin/settings` (administrators): the fields sent, in one transaction with their
     * audit entry (the changed fields, before and after); every cache of settings drops at once.
     */
    async save(user: CurrentUser | null, input: SettingsInput) {
      const actor = requireRole(user, "admin");
      const uniqueId = input.educator_post_unique_id;
      if (uniqueId && !(await repo.liveEducatorPostExists(db, uniqueId))) {
        throw new ValidationError({
          educator_post_unique_id: SETTINGS_MESSAGES.educatorPostMissing,
        });
      }
      const { copyright_text, playstore_url, app_store_url, ...generalFields } = input;
      const general = withoutUndefined(generalFields);
      const footer = withoutUndefined({ copyright_text, playstore_url, app_store_url });
      const at = now();
      const changed = await db.transaction().execute(async (tx) => {
        await repo.lockSettings(tx);
        const before = await settingsSnapshot(tx);
        if (Object.keys(general).length) await repo.saveGeneralSettings(tx, general, at);
        if (Object.keys(footer).length) await repo.saveFooterSettings(tx, footer, at);
        const diff = changedFields(before, { ...general, ...footer });
        if (!Object.keys(diff.after).length) return false;
        await recordAudit(tx, actor, {
          action: "settings.update",
          itemType: "setting",
          itemId: "site",
          ...diff,
        });
        return true;
      });
      if (changed) changes.emit("settings");
      return editableSettings();
    },

    /**
     * `POST /api/admin/settings/image` (administrators): the logo or an app-store badge, checked by
     * its bytes and re-encoded like every upload (core/media); or cleared with `remove`. The
     * replaced file stays, so the audit entry's "before" still shows what was there.
     */
    async saveImage(user: CurrentUser | null, input: SiteImageInput, bytes: Buffer | undefined) {
      const actor = requireRole(user, "admin");
      if (!bytes && !input.remove) {
        throw new ValidationError({ image: SETTINGS_MESSAGES.imageMissing });
      }
      const field = input.field;
      const url = await withStoredImage(
        deps,
        {
          bytes: input.remove ? undefined : bytes,
          folder: "site",
          maxSize: SITE_IMAGE_MAX_SIZE[field],
        },
        (stored) =>
          db.transaction().execute(async (tx) => {
            await repo.lockSettings(tx);
            const before = await settingsSnapshot(tx);
            const value = stored?.url ?? "";
            if (field === "website_logo") {
              await repo.saveGeneralSettings(tx, { website_logo: value }, now());
            } else {
              await repo.saveFooterSettings(tx, { [field]: value }, now());
            }
            if (stored) await insertMediaRecord(tx, actor.id, stored);
            await recordAudit(tx, actor, {
              action: input.remove ? "settings.image_remove" : "settings.image",
              itemType: "setting",
              itemId: field,
              before: { [field]: before[field] },
              after: { [field]: value },
            });
            return value;
          }),
      );
      changes.emit("settings");
      return { field, url };
    },

    /** `POST /api/admin/blocked_domains/add` (administrators). */
    async blockDomain(user: CurrentUser | null, { domain }: BlockedDomainInput) {
      const actor = requireRole(user, "admin");
      await db.transaction().execute(async (tx) => {
        if (!(await insertBlockedDomain(tx, domain, actor.id))) {
          throw new ConflictError(`${domain} is already on the list.`);
        }
        await recordAudit(tx, actor, {
          action: "blocked_domain.add",
          itemType: "blocked_domain",
          itemId: domain,
          before: null,
          after: { domain },
        });
      });
      return { domain, ...(await editableSettings()) };
    },

    /** `POST /api/admin/blocked_domains/remove` (administrators). */
    async unblockDomain(user: CurrentUser | null, { domain }: BlockedDomainInput) {
      const actor = requireRole(user, "admin");
      await db.transaction().execute(async (tx) => {
        if (!(await deleteBlockedDomain(tx, domain))) {
          throw new NotFoundError(`${domain} is not on the list.`);
        }
        await recordAudit(tx, actor, {
          action: "blocked_domain.remove",
          itemType: "blocked_domain",
          itemId: domain,
          before: { domain },
          after: null,
        });
      });
      return { domain, ...(await editableSettings()) };
    },
  };
}

/** The stored values an edit may change, as the audit entry's "before". */
async function settingsSnapshot(db: Parameters<typeof repo.findGeneralSettingsRow>[0]) {
  const [general, footer] = await Promise.all([
    repo.findGeneralSettingsRow(db),
    repo.findFirstFooterRow(db),
  ]);
  const { id: _id, ...footerValues } = footer ?? { id: 0 };
  return { ...general, ...footerValues } as Record<string, unknown>;
}

function withoutUndefined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

export type SettingsService = ReturnType<typeof createSettingsService>;
