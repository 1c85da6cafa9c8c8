import { requireUser } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { formatCurrency } from "../intl-formats.ts";
import type { createSavedService } from "../member/saved/service.ts";
import type { createSettingsService } from "../settings/service.ts";
import { drawAppIcons, type AppIconSet } from "./icons.ts";
import { webAppManifest } from "./manifest.ts";

/** A deal's price as the offline list shows it: "$3.97", or nothing for a deal without one. */
function offlinePrice(price: number | null, currency: string | null): string {
  if (price === null) return "";
  try {
    return formatCurrency(price, currency || "USD");
  } catch {
    // A currency code Intl does not know: the amount, then the code as stored.
    return `${price.toFixed(2)} ${currency}`;
  }
}

/**
 * The installable app (docs/decisions/0108-installable-app.md): the web app manifest, the icons
 * drawn from the site's logo, and the saved deals the service worker keeps for the offline page.
 * The icons are drawn once and kept in the process; a change of settings (a new logo or colour)
 * drops them, in this process and, through the change broadcast, in every other one.
 */
export function createAppInstallService(
  deps: Deps,
  settings: ReturnType<typeof createSettingsService>,
  saved: ReturnType<typeof createSavedService>,
) {
  const { changes, media, config, log, now } = deps;
  let icons: Promise<AppIconSet> | null = null;
  changes.on("settings", () => {
    icons = null;
  });

  function appIcons(): Promise<AppIconSet> {
    if (icons) return icons;
    const drawing = settings
      .get()
      .then((site) =>
        drawAppIcons(media, site.logo, site.colors, (error) =>
          log.error({ msg: "the site's logo could not be drawn as app icons", err: error }),
        ),
      );
    icons = drawing;
    // A failure is not kept: the next request tries again.
    drawing.catch(() => {
      if (icons === drawing) icons = null;
    });
    return drawing;
  }

  return {
    /** The web app manifest's fields, from the site's settings and PUBLIC_URL. */
    async manifest() {
      const [site, set] = await Promise.all([settings.get(), appIcons()]);
      return webAppManifest(
        {
          name: site.websiteName,
          description: site.description,
          publicUrl: config.publicUrl,
          colors: site.colors,
        },
        set.version,
      );
    },

    /** One icon's PNG bytes (null for a name that is no icon) and the icons' current version. */
    async icon(file: string): Promise<{ bytes: Buffer | null; version: string }> {
      const set = await appIcons();
      return { bytes: set.files.get(file) ?? null, version: set.version };
    },

    /**
     * `GET /api/offline_saved_deals`: the member's most recently saved deals (one page), as the
     * offline page lists them: title, price, store and the deal's address.
     */
    async offlineSavedDeals(user: CurrentUser | null) {
      const member = requireUser(user);
      const listing = await saved.list(member, { user_id: undefined, page: 1 });
      return {
        status: "true" as const,
        member: member.id,
        saved_at: now().toISOString(),
        deals: listing.items.map((deal) => ({
          title: deal.title,
          price: offlinePrice(deal.price, deal.currency),
          store: deal.store_title,
          url: `/post/${deal.unique_id}/${deal.slug}`,
        })),
      };
    },
  };
}
