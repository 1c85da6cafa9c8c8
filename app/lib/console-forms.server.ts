import {
  CategoryCreateBody,
  CategoryUpdateBody,
  StoreCreateBody,
  StoreUpdateBody,
  type CatalogKind,
} from "../../core/catalog/console-schema.ts";
import {
  FeaturedStoreBody,
  PageCreateBody,
  PageUpdateBody,
  WishlistCreateBody,
  WishlistUpdateBody,
} from "../../core/cms/console-schema.ts";
import { ContactReplyBody } from "../../core/contact/console-schema.ts";
import {
  ForumCategoryCreateBody,
  ForumCategoryUpdateBody,
  ForumCreateBody,
  ForumUpdateBody,
} from "../../core/forums/console-schema.ts";
import { SchoolDomainBody } from "../../core/people/educators/schema.ts";
import { ReputationLevelsBody } from "../../core/people/reputation/schema.ts";
import { UndeliverableClearBody } from "../../core/mail/console/schema.ts";
import { orNull } from "../../core/not-found.ts";
import { presentPostUpdated } from "../../core/posts/console-presenter.ts";
import { PostUpdateBody } from "../../core/posts/console-schema.ts";
import { presentMerged } from "../../core/posts/prices/presenter.ts";
import { MergeProductBody } from "../../core/posts/prices/schema.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import {
  BlockedDomainBody,
  SETTINGS_MESSAGES,
  SettingsBody,
  SiteImageBody,
} from "../../core/settings/schema.ts";
import { DigestScheduleBody } from "../../core/settings/digest-schedule.ts";
import {
  SocialLinkCreateBody,
  SocialLinkUpdateBody,
} from "../../core/settings/social-links-schema.ts";
import { postUpdateSchema } from "./post-edit-values.ts";
import {
  consoleForm,
  correctTheFields,
  listAddress,
  type ConsoleForm,
} from "./console-form.server.ts";

/**
 * Every console page's kit forms, by page and then by `intent`: each with the schema, role and
 * service of its JSON call (the `apiRoute` named beside it), for `consoleFormAction`.
 */

/** A record form that closes on success: back to the list after the redirect delay. */
const closes = { validationMessage: correctTheFields, next: listAddress };

/** `/api/admin/stores/*` and `/api/admin/categories/*` (server/api/admin-stores-and-categories.ts). */
function catalogForms(kind: CatalogKind): Record<string, ConsoleForm> {
  const file = { field: "image", tooLargeMessage: IMAGE_MESSAGES.tooLarge };
  return {
    create: consoleForm({
      schema: kind === "store" ? StoreCreateBody : CategoryCreateBody,
      file,
      ...closes,
      run: (input, { services, user, file }) =>
        services.catalogConsole.create(user, kind, input, file),
    }),
    update: consoleForm({
      schema: kind === "store" ? StoreUpdateBody : CategoryUpdateBody,
      file,
      ...closes,
      run: (input, { services, user, file }) =>
        services.catalogConsole.update(user, kind, input, file),
    }),
  };
}

export const CONSOLE_FORMS = {
  stores: catalogForms("store"),
  categories: catalogForms("category"),

  // server/api/admin-curated-content.ts
  pages: {
    create: consoleForm({
      schema: PageCreateBody,
      ...closes,
      run: (input, { services, user }) => services.cmsConsole.createPage(user, input),
    }),
    update: consoleForm({
      schema: PageUpdateBody,
      ...closes,
      run: (input, { services, user }) => services.cmsConsole.updatePage(user, input),
    }),
  },
  featured: {
    add: consoleForm({
      schema: FeaturedStoreBody,
      run: (input, { services, user }) => services.cmsConsole.addFeatured(user, input),
    }),
  },
  wishlist: {
    create: consoleForm({
      schema: WishlistCreateBody,
      ...closes,
      run: (input, { services, user }) => services.cmsConsole.createWishlistEntry(user, input),
    }),
    update: consoleForm({
      schema: WishlistUpdateBody,
      ...closes,
      run: (input, { services, user }) => services.cmsConsole.updateWishlistEntry(user, input),
    }),
  },
  social: {
    create: consoleForm({
      schema: SocialLinkCreateBody,
      ...closes,
      run: (input, { services, user }) => services.socialLinksConsole.create(user, input),
    }),
    update: consoleForm({
      schema: SocialLinkUpdateBody,
      ...closes,
      run: (input, { services, user }) => services.socialLinksConsole.update(user, input),
    }),
  },
  forums: {
    "forum-create": consoleForm({
      schema: ForumCreateBody,
      ...closes,
      run: (input, { services, user }) => services.forumsConsole.createForum(user, input),
    }),
    "forum-update": consoleForm({
      schema: ForumUpdateBody,
      ...closes,
      run: (input, { services, user }) => services.forumsConsole.updateForum(user, input),
    }),
    "category-create": consoleForm({
      schema: ForumCategoryCreateBody,
      run: (input, { services, user }) => services.forumsConsole.createCategory(user, input),
    }),
    "category-update": consoleForm({
      schema: ForumCategoryUpdateBody,
      ...closes,
      run: (input, { services, user }) => services.forumsConsole.updateCategory(user, input),
    }),
  },

  // server/api/educators.ts
  educators: {
    "add-domain": consoleForm({
      schema: SchoolDomainBody,
      run: (input, { services, user }) => services.educators.addDomain(user, input),
    }),
  },

  // server/api/admin-messages.ts
  messages: {
    reply: consoleForm({
      schema: ContactReplyBody,
      run: (input, { services, user }) => services.contactConsole.reply(user, input),
    }),
  },

  // server/api/admin-settings.ts: administrators only.
  settings: {
    settings: consoleForm({
      schema: SettingsBody,
      role: "admin",
      run: async (input, { services, user }) => {
        await services.settings.save(user, input);
        return { message: SETTINGS_MESSAGES.saved };
      },
    }),
    // A file, or remove=true (the Remove button's value) to clear the image.
    image: consoleForm({
      schema: SiteImageBody,
      role: "admin",
      file: { field: "image", tooLargeMessage: IMAGE_MESSAGES.tooLarge },
      run: async (input, { services, user, file }) => {
        const { field, url } = await services.settings.saveImage(user, input, file);
        return { message: SETTINGS_MESSAGES.imageSaved(field, Boolean(url)) };
      },
    }),
    "block-domain": consoleForm({
      schema: BlockedDomainBody,
      role: "admin",
      run: async (input, { services, user }) => {
        const { domain } = await services.settings.blockDomain(user, input);
        return { message: SETTINGS_MESSAGES.blocked(domain) };
      },
    }),
    // server/api/admin-digest.ts: the weekly digest's day and hour (record 0087).
    digest: consoleForm({
      schema: DigestScheduleBody,
      role: "admin",
      run: (input, { services, user }) => services.digest.saveSchedule(user, input),
    }),
    // server/api/reputation.ts, POST /api/admin/reputation_levels.
    "reputation-levels": consoleForm({
      schema: ReputationLevelsBody,
      role: "admin",
      run: async (input, { services, user }) => {
        const { message } = await services.reputation.saveLevels(user, input);
        return { message };
      },
    }),
  },

  // server/api/admin-mail.ts: administrators only.
  mail: {
    clear: consoleForm({
      schema: UndeliverableClearBody,
      role: "admin",
      run: (input, { services, user }) => services.mailConsole.clear(user, input),
    }),
  },

  postEdit: {
    // server/api/admin-posts-and-comments.ts: only the fields that changed are checked and sent.
    update: consoleForm({
      schema: PostUpdateBody,
      schemaFor: async (posted, { services, user }) => {
        const uniqueId = posted.get("unique_id");
        const post =
          typeof uniqueId === "string"
            ? await orNull(services.consolePosts.forEdit(user, uniqueId))
            : null;
        // An unknown post: the service answers it, as it does for the JSON call.
        return post ? postUpdateSchema(post) : PostUpdateBody;
      },
      run: async (input, { services, user }) =>
        presentPostUpdated(await services.consolePosts.update(user, input)),
    }),
    // server/api/price-history.ts
    merge: consoleForm({
      schema: MergeProductBody,
      run: async (input, { services, user }) =>
        presentMerged(await services.prices.merge(user, input)),
    }),
  },
} satisfies Record<string, Record<string, ConsoleForm>>;
