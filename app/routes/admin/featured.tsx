import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { FeaturedStoreBody } from "../../../core/cms/console-schema.ts";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleMoveButtons } from "../../components/console/ConsoleMoveButtons.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { apiCall } from "../../lib/api.ts";
import { useApiForm, type ApiAnswer, type FormMessage } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/featured";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const [featured, stores] = await Promise.all([
    ctx.services.cmsConsole.featured(user),
    ctx.services.catalog.allStores(),
  ]);
  const featuredIds = new Set(featured.map((row) => row.store_id));
  return {
    featured,
    candidates: stores
      .filter((store) => !featuredIds.has(store.id))
      .map((store) => ({ value: String(store.id), label: store.title })),
  };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.featured);

export const meta: Route.MetaFunction = () => consoleMeta("Featured stores");

/** /admin/featured: the stores the featured carousels show, in their order. */
export default function FeaturedConsole() {
  const { featured, candidates } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const posted = usePostedConsoleForm("add");
  const form = useApiForm<{ store_id: string }, ApiAnswer>(
    FeaturedStoreBody,
    (values) => apiCall<ApiAnswer>("/admin/featured/add", values),
    async (result, current) => {
      setNotice({ text: String(result.data.message ?? "Featured."), tone: "success" });
      current.reset();
      await revalidator.revalidate();
    },
    { initial: { store_id: "" }, posted, idPrefix: "featured", messageMs: 8000 },
  );

  return (
    <>
      <h1>Featured stores</h1>
      <p className="console-intro">
        The stores the Contact Us carousel (and the apps) feature, in this order.
      </p>
      <FormAlert message={notice} />
      <ConsoleKitForm form={form} intent="add" className="console-toolbar">
        <FormAlert message={form.message} />
        <Field
          {...form.bind("store_id")}
          label="Feature a store"
          control="select"
          placeholder={candidates.length ? "Choose a store" : "Every store is featured"}
          options={candidates}
          disabled={candidates.length === 0}
        />
        <SubmitButton busy={form.busy} disabled={candidates.length === 0}>
          Feature
        </SubmitButton>
      </ConsoleKitForm>
      <ConsoleTable
        caption="Featured stores"
        rows={featured}
        rowKey={(row) => row.store_id}
        empty="No store is featured yet."
        columns={[
          { header: "#", cell: (row) => row.position },
          {
            header: "Picture",
            cell: (row) =>
              row.image_url ? (
                <img className="console-thumb" src={row.image_url} alt="" loading="lazy" />
              ) : (
                <span className="console-muted">None</span>
              ),
          },
          {
            header: "Store",
            cell: (row) => (
              <a href={`/store/${row.slug}`} target="_blank" rel="noreferrer">
                {row.title}
              </a>
            ),
          },
          {
            header: "Actions",
            actions: true,
            cell: (row) => {
              const index = featured.indexOf(row);
              return (
                <>
                  <ConsoleMoveButtons
                    call="/admin/featured/move"
                    body={{ store_id: row.store_id }}
                    label={row.title}
                    first={index === 0}
                    last={index === featured.length - 1}
                  />
                  <ConsoleAction
                    call="/admin/featured/remove"
                    body={{ store_id: row.store_id }}
                    label="Remove"
                    confirm={`Stop featuring “${row.title}”? The store itself stays.`}
                    onDone={(answer) =>
                      setNotice({ text: String(answer.message ?? "Removed."), tone: "success" })
                    }
                  />
                </>
              );
            },
          },
        ]}
      />
    </>
  );
}
