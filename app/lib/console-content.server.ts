import type { RequestContext } from "#app-context";
import type { CatalogKind } from "../../core/catalog/console-schema.ts";
import { listQueryOf } from "../../core/console/content-fields.ts";
import { orNull } from "../../core/not-found.ts";
import type { CatalogConsoleData } from "../components/console/CatalogConsole.tsx";
import { requireConsoleUser } from "./console.server.ts";

/** A positive whole number of a query parameter (`?edit=12`), or null. */
export function idParam(value: string | null): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** /admin/stores and /admin/categories: the page of the list, the item being edited, the choices. */
export async function loadCatalogConsole(
  ctx: RequestContext,
  kind: CatalogKind,
  url: URL,
): Promise<CatalogConsoleData> {
  const user = requireConsoleUser(ctx);
  const { services } = ctx;
  const query = listQueryOf(Object.fromEntries(url.searchParams));
  const editId = idParam(url.searchParams.get("edit"));
  const [list, all, editing] = await Promise.all([
    services.catalogConsole.list(user, kind, query),
    kind === "store" ? services.catalog.allStores() : services.catalog.allCategories(),
    editId === null ? null : orNull(services.catalogConsole.item(user, kind, editId)),
  ]);
  return {
    list,
    choices: all.map((item) => ({ id: item.id, title: item.title })),
    editing: editing && {
      id: editing.id,
      title: editing.title,
      slug: editing.slug,
      description: editing.description,
      image_url: editing.image_url,
      link: editing.link,
      old_slugs: editing.old_slugs,
    },
    canDelete: user.role === "admin",
  };
}
