import {
  FeaturedMoveBody,
  FeaturedStoreBody,
  IdBody,
  MoveBody,
  PageCreateBody,
  PageUpdateBody,
  WishlistCreateBody,
  WishlistUpdateBody,
} from "../../core/cms/console-schema.ts";
import {
  ForumCategoryCreateBody,
  ForumCategoryDeleteBody,
  ForumCategoryUpdateBody,
  ForumCreateBody,
  ForumIdBody,
  ForumMoveBody,
  ForumUpdateBody,
} from "../../core/forums/console-schema.ts";
import { SOCIAL_ICONS } from "../../core/settings/social-icons.ts";
import {
  SocialLinkCreateBody,
  SocialLinkIdBody,
  SocialLinkMoveBody,
  SocialLinkUpdateBody,
} from "../../core/settings/social-links-schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { MovedAndDeletedResponse } from "../../core/catalog/responses.ts";
import {
  FeaturedListResponse,
  PageSavedResponse,
  PagesListResponse,
  WishlistListResponse,
  WishlistSavedResponse,
} from "../../core/cms/responses.ts";
import {
  ForumCategorySavedResponse,
  ForumSavedResponse,
  ForumsConsoleResponse,
} from "../../core/forums/responses.ts";
import { ConsoleDoneResponse } from "../../core/responses.ts";
import { SocialLinkSavedResponse, SocialLinksListResponse } from "../../core/settings/responses.ts";

const done = (message: string) => ({ status: "true", message });

/**
 * The console's curated content: featured stores, the Teachers Wishlist, social links, forums and
 * their categories, CMS pages (`/api/admin/featured/*`, `/wishlist/*`, `/social/*`, `/forums/*`,
 * `/forum_categories/*`, `/pages/*`). Moderators read, create, edit and order; deletes are admins'.
 */
export const adminCuratedContentApi: ApiModule = async (app, { services }) => {
  const cms = services.cmsConsole;
  const social = services.socialLinksConsole;
  const forums = services.forumsConsole;

  // Featured stores -------------------------------------------------------------------------------
  const FEATURED = "Console: featured stores";
  apiRoute(app, {
    method: "GET",
    url: "/admin/featured",
    tag: FEATURED,
    summary: "The featured stores in their order",
    response: FeaturedListResponse,
    auth: "moderator",
    handler: async ({ request }) => ({
      status: "true",
      featured: await cms.featured(request.user),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/featured/add",
    tag: FEATURED,
    summary: "Features a store (last in the order)",
    body: FeaturedStoreBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      done((await cms.addFeatured(request.user, input)).message),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/featured/remove",
    tag: FEATURED,
    summary: "Stops featuring a store (the store stays)",
    body: FeaturedStoreBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      done((await cms.removeFeatured(request.user, input)).message),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/featured/move",
    tag: FEATURED,
    summary: "Moves a featured store one place up or down",
    body: FeaturedMoveBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      done((await cms.moveFeatured(request.user, input)).message),
  });

  // Teachers Wishlist -----------------------------------------------------------------------------
  const WISHLIST = "Console: Teachers Wishlist";
  apiRoute(app, {
    method: "GET",
    url: "/admin/wishlist",
    tag: WISHLIST,
    summary: "The Teachers Wishlist entries in their order",
    response: WishlistListResponse,
    auth: "moderator",
    handler: async ({ request }) => ({ status: "true", items: await cms.wishlist(request.user) }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/wishlist/create",
    tag: WISHLIST,
    summary: "Adds a teacher's Amazon wishlist (last in the order)",
    body: WishlistCreateBody,
    response: WishlistSavedResponse,
    auth: "moderator",
    successStatus: 201,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await cms.createWishlistEntry(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/wishlist/update",
    tag: WISHLIST,
    summary: "Edits a Teachers Wishlist entry",
    body: WishlistUpdateBody,
    response: WishlistSavedResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await cms.updateWishlistEntry(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/wishlist/delete",
    tag: WISHLIST,
    summary: "Deletes a Teachers Wishlist entry (admins)",
    body: IdBody,
    response: ConsoleDoneResponse,
    auth: "admin",
    handler: async ({ input, request }) =>
      done((await cms.deleteWishlistEntry(request.user, input)).message),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/wishlist/move",
    tag: WISHLIST,
    summary: "Moves a Teachers Wishlist entry one place up or down",
    body: MoveBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      done((await cms.moveWishlistEntry(request.user, input)).message),
  });

  // Social links ----------------------------------------------------------------------------------
  const SOCIAL = "Console: social links";
  apiRoute(app, {
    method: "GET",
    url: "/admin/social",
    tag: SOCIAL,
    summary: "The footer's social links in their order, and the icons a link may use",
    response: SocialLinksListResponse,
    auth: "moderator",
    handler: async ({ request }) => ({
      status: "true",
      items: await social.list(request.user),
      icons: SOCIAL_ICONS.map((icon) => ({ value: icon.value, label: icon.label })),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/social/create",
    tag: SOCIAL,
    summary: "Adds a social link (name, social_url, social_image: an icon of the list)",
    body: SocialLinkCreateBody,
    response: SocialLinkSavedResponse,
    auth: "moderator",
    successStatus: 201,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await social.create(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/social/update",
    tag: SOCIAL,
    summary: "Edits a social link",
    body: SocialLinkUpdateBody,
    response: SocialLinkSavedResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await social.update(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/social/delete",
    tag: SOCIAL,
    summary: "Deletes a social link (admins)",
    body: SocialLinkIdBody,
    response: ConsoleDoneResponse,
    auth: "admin",
    handler: async ({ input, request }) => done((await social.remove(request.user, input)).message),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/social/move",
    tag: SOCIAL,
    summary: "Moves a social link one place up or down",
    body: SocialLinkMoveBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) => done((await social.move(request.user, input)).message),
  });

  // Forums and their categories -------------------------------------------------------------------
  const FORUMS = "Console: forums";
  apiRoute(app, {
    method: "GET",
    url: "/admin/forums",
    tag: FORUMS,
    summary: "The forums in their order, each with its categories and their post counts",
    response: ForumsConsoleResponse,
    auth: "moderator",
    handler: async ({ request }) => ({ status: "true", forums: await forums.list(request.user) }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forums/create",
    tag: FORUMS,
    summary: "Creates a forum (type d: deals, g: educators); an empty slug is made from the title",
    body: ForumCreateBody,
    response: ForumSavedResponse,
    auth: "moderator",
    successStatus: 201,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await forums.createForum(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forums/update",
    tag: FORUMS,
    summary: "Edits a forum",
    body: ForumUpdateBody,
    response: ForumSavedResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await forums.updateForum(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forums/delete",
    tag: FORUMS,
    summary: "Deletes a forum that has no categories left (admins)",
    body: ForumIdBody,
    response: ConsoleDoneResponse,
    auth: "admin",
    handler: async ({ input, request }) =>
      done((await forums.deleteForum(request.user, input)).message),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forums/move",
    tag: FORUMS,
    summary: "Moves a forum one place up or down",
    body: ForumMoveBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      done((await forums.moveForum(request.user, input)).message),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forum_categories/create",
    tag: FORUMS,
    summary: "Adds a category to a forum (deal or discussion, as the forum's type)",
    body: ForumCategoryCreateBody,
    response: ForumCategorySavedResponse,
    auth: "moderator",
    successStatus: 201,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await forums.createCategory(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forum_categories/update",
    tag: FORUMS,
    summary: "Renames a forum category",
    body: ForumCategoryUpdateBody,
    response: ForumCategorySavedResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await forums.updateCategory(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forum_categories/delete",
    tag: FORUMS,
    summary:
      "Deletes a forum category (admins). One with posts answers 409 with the count (in_use) " +
      "unless move_to names a category of the same kind that takes them over.",
    body: ForumCategoryDeleteBody,
    response: MovedAndDeletedResponse,
    auth: "admin",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await forums.deleteCategory(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/forum_categories/move",
    tag: FORUMS,
    summary: "Moves a forum category one place up or down within its forum",
    body: ForumMoveBody,
    response: ConsoleDoneResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      done((await forums.moveCategory(request.user, input)).message),
  });

  // CMS pages -------------------------------------------------------------------------------------
  const PAGES = "Console: pages";
  apiRoute(app, {
    method: "GET",
    url: "/admin/pages",
    tag: PAGES,
    summary: "The CMS pages (privacy policy and any other), with their public addresses",
    response: PagesListResponse,
    auth: "moderator",
    handler: async ({ request }) => ({ status: "true", pages: await cms.pages(request.user) }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/pages/create",
    tag: PAGES,
    summary:
      "Creates a page at /page/<slug> (slug: lower-case words and dashes, not a route of the " +
      "site); its HTML goes through the site's allow-list",
    body: PageCreateBody,
    response: PageSavedResponse,
    auth: "moderator",
    successStatus: 201,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await cms.createPage(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/pages/update",
    tag: PAGES,
    summary: "Edits a page (a changed slug keeps the old address, which answers 301)",
    body: PageUpdateBody,
    response: PageSavedResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await cms.updatePage(request.user, input)),
    }),
  });
  apiRoute(app, {
    method: "POST",
    url: "/admin/pages/delete",
    tag: PAGES,
    summary: "Deletes a page (admins); the privacy policy cannot be deleted",
    body: IdBody,
    response: ConsoleDoneResponse,
    auth: "admin",
    handler: async ({ input, request }) =>
      done((await cms.deletePage(request.user, input)).message),
  });
};
