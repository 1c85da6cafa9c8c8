import {
  presentCatalogConsolePage,
  presentCatalogSaved,
} from "../../core/catalog/console-presenter.ts";
import {
  CatalogDeleteBody,
  CategoryCreateBody,
  CategoryUpdateBody,
  StoreCreateBody,
  StoreUpdateBody,
  type CatalogKind,
} from "../../core/catalog/console-schema.ts";
import { listQueryOf } from "../../core/console/content-fields.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  CatalogListResponse,
  CatalogSavedResponse,
  MovedAndDeletedResponse,
} from "../../core/catalog/responses.ts";

const IMAGE_FORM = { fileField: "image", tooLargeMessage: IMAGE_MESSAGES.tooLarge };
const TAG = "Console: stores and categories";

/**
 * The console's stores and categories (`/api/admin/stores/*`, `/api/admin/categories/*`): list,
 * create and edit (multipart with an optional `image` file; moderators and admins), delete (admins;
 * `move_to` moves the deals first).
 */
export const adminStoresAndCategoriesApi: ApiModule = async (app, { services }) => {
  const catalog = services.catalogConsole;
  for (const kind of ["store", "category"] as const satisfies CatalogKind[]) {
    const path = kind === "store" ? "/admin/stores" : "/admin/categories";
    const noun = kind === "store" ? "store" : "category";
    const createBody = kind === "store" ? StoreCreateBody : CategoryCreateBody;
    const updateBody = kind === "store" ? StoreUpdateBody : CategoryUpdateBody;

    apiRoute(app, {
      method: "GET",
      url: path,
      tag: TAG,
      summary: `One page of 20 ${noun === "store" ? "stores" : "categories"} by title, with their deal counts (?search=&page=)`,
      response: CatalogListResponse,
      auth: "moderator",
      handler: async ({ request }) =>
        presentCatalogConsolePage(
          await catalog.list(request.user, kind, listQueryOf(request.query)),
        ),
    });

    apiRoute(app, {
      method: "POST",
      url: `${path}/create`,
      tag: TAG,
      summary:
        `Creates a ${noun} (multipart; optional image file). An empty slug is made from the title; ` +
        "a slug in use is a 422 on slug.",
      body: createBody,
      response: CatalogSavedResponse,
      multipart: IMAGE_FORM,
      auth: "moderator",
      successStatus: 201,
      handler: async ({ input, file, request }) => {
        const saved = await catalog.create(request.user, kind, input, file);
        return presentCatalogSaved(saved.message, saved.item);
      },
    });

    apiRoute(app, {
      method: "POST",
      url: `${path}/update`,
      tag: TAG,
      summary:
        `Edits a ${noun} (multipart; optional image file, remove_image). A changed slug keeps the ` +
        "old one, which answers 301 to the new one.",
      body: updateBody,
      response: CatalogSavedResponse,
      multipart: IMAGE_FORM,
      auth: "moderator",
      handler: async ({ input, file, request }) => {
        const saved = await catalog.update(request.user, kind, input, file);
        return presentCatalogSaved(saved.message, saved.item);
      },
    });

    apiRoute(app, {
      method: "POST",
      url: `${path}/delete`,
      tag: TAG,
      summary:
        `Deletes a ${noun} for good (admins). One that still has deals answers 409 with the ` +
        `count (in_use) unless move_to names the ${noun} that takes them over.`,
      body: CatalogDeleteBody,
      response: MovedAndDeletedResponse,
      auth: "admin",
      handler: async ({ input, request }) => {
        const done = await catalog.remove(request.user, kind, input);
        return { status: "true", message: done.message, moved: done.moved };
      },
    });
  }
};
