import { TtlCache } from "../cache/ttl-cache.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import {
  presentCmsPage,
  presentFeaturedStore,
  type CmsPage,
  type FeaturedStore,
} from "./presenter.ts";
import * as repo from "./repository.ts";

/**
 * Content the site owner curates: CMS pages (the privacy policy) and the featured stores. Both
 * change rarely and are read by public pages, so they are kept in the process for a minute, and
 * dropped when a change of them (or of the stores that are featured) is reported.
 */
export function createCmsService({ db, changes }: Deps) {
  const pages = new TtlCache<CmsPage | null>(60_000, 50);
  const featured = new TtlCache<FeaturedStore[]>(60_000, 1);
  changes.on("cms", () => pages.clear());
  changes.on(["cms", "catalog"], () => featured.clear());

  const findPage = (slug: string) =>
    pages.get(slug, async () => {
      const row = await repo.findCmsPage(db, slug);
      return row ? presentCmsPage(row) : null;
    });

  return {
    /** A page by slug; an unknown slug is a NotFoundError. */
    async page(slug: string): Promise<CmsPage> {
      const page = await findPage(slug);
      if (!page) throw new NotFoundError();
      return page;
    },
    /** Where an old slug of a renamed page leads now (its current slug), or null. */
    movedPage: (slug: string) => repo.findMovedPageSlug(db, slug),
    featuredStores: () =>
      featured.get("featured", async () =>
        (await repo.findFeaturedStores(db)).map(presentFeaturedStore),
      ),
  };
}

export type CmsService = ReturnType<typeof createCmsService>;
