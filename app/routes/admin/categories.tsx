import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { CatalogConsole } from "../../components/console/CatalogConsole.tsx";
import { loadCatalogConsole } from "../../lib/console-content.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/categories";
import "../../styles/submit.css";

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadCatalogConsole(context.get(requestContext), "category", new URL(request.url));
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.categories);

export const meta: Route.MetaFunction = () => consoleMeta("Categories");

export default function CategoriesConsole() {
  return <CatalogConsole kind="category" data={useLoaderData<typeof loader>()} />;
}
