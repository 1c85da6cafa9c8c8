import { useState } from "react";
import { Link, useLoaderData, useNavigate } from "react-router";
import { requestContext } from "#app-context";
import { WishlistCreateBody } from "../../../core/cms/console-schema.ts";
import { ConsoleDeleteButton } from "../../components/console/ConsoleDeleteButton.tsx";
import { ConsoleMoveButtons } from "../../components/console/ConsoleMoveButtons.tsx";
import {
  ConsoleRecordForm,
  type RecordField,
} from "../../components/console/ConsoleRecordForm.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { useConsoleUrl } from "../../components/console/console-url.ts";
import { FormAlert } from "../../components/Form.tsx";
import type { FormMessage } from "../../lib/api-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import type { Route } from "./+types/wishlist";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  return {
    items: await ctx.services.cmsConsole.wishlist(user),
    canDelete: user.role === "admin",
  };
}

export const meta: Route.MetaFunction = () => consoleMeta("Teachers Wishlist");

const FIELDS: RecordField[] = [
  { name: "first_name", label: "First name", required: true, maxLength: 100 },
  { name: "last_name", label: "Last name", required: true, maxLength: 100 },
  {
    name: "school_location",
    label: "School location",
    required: true,
    maxLength: 200,
    hint: "School and place, as the home page shows it: “Lincoln Elementary, Austin, TX”.",
  },
  {
    name: "amazon_wishlist",
    label: "Amazon wishlist URL",
    required: true,
    type: "url",
    inputMode: "url",
    maxLength: 500,
    placeholder: "https://www.amazon.com/hz/wishlist/ls/…",
  },
];

const EMPTY = { first_name: "", last_name: "", school_location: "", amazon_wishlist: "" };

/** /admin/wishlist: the home page's Teachers Wishlist, in its order. */
export default function WishlistConsole() {
  const { items, canDelete } = useLoaderData<typeof loader>();
  const { listHref, creating, editing } = useConsoleUrl();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const edited = editing ? items.find((item) => String(item.id) === editing) : undefined;

  function saved(message: string) {
    setNotice({ text: message, tone: "success" });
    void navigate(listHref(), { replace: true, preventScrollReset: true });
  }

  return (
    <>
      <div className="console-heading">
        <h1>Teachers Wishlist</h1>
        {!creating && !edited && (
          <Link to={listHref({ new: "1" })} className="btn btn-primary">
            Add a wishlist
          </Link>
        )}
      </div>
      <p className="console-intro">
        The teachers' Amazon wishlists the home page shows, in this order.
      </p>
      <FormAlert message={notice} />
      {(creating || edited) && (
        <ConsoleRecordForm
          key={edited ? `edit-${edited.id}` : "new"}
          heading={
            edited ? `Edit ${edited.first_name} ${edited.last_name}'s wishlist` : "New wishlist"
          }
          call={edited ? "/admin/wishlist/update" : "/admin/wishlist/create"}
          schema={WishlistCreateBody}
          fields={FIELDS}
          initial={
            edited
              ? {
                  first_name: edited.first_name,
                  last_name: edited.last_name,
                  school_location: edited.school_location,
                  amazon_wishlist: edited.amazon_wishlist,
                }
              : EMPTY
          }
          extra={edited ? { id: edited.id } : {}}
          submitLabel={edited ? "Save changes" : "Add wishlist"}
          onSaved={saved}
          onCancel={() => void navigate(listHref(), { preventScrollReset: true })}
        />
      )}
      <ConsoleTable
        caption="Teachers Wishlist entries"
        rows={items}
        rowKey={(item) => item.id}
        empty="No wishlists yet."
        columns={[
          { header: "#", cell: (item) => item.position },
          { header: "Teacher", cell: (item) => `${item.first_name} ${item.last_name}` },
          { header: "School", cell: (item) => item.school_location },
          {
            header: "Wishlist",
            cell: (item) => (
              <a href={item.amazon_wishlist} target="_blank" rel="noreferrer noopener">
                Open on Amazon
              </a>
            ),
          },
          {
            header: "Actions",
            actions: true,
            cell: (item) => {
              const name = `${item.first_name} ${item.last_name}`;
              const index = items.indexOf(item);
              return (
                <>
                  <ConsoleMoveButtons
                    call="/admin/wishlist/move"
                    body={{ id: item.id }}
                    label={`${name}'s wishlist`}
                    first={index === 0}
                    last={index === items.length - 1}
                  />
                  <Link
                    to={listHref({ edit: String(item.id) })}
                    className="btn btn-sm console-btn-plain"
                    aria-label={`Edit ${name}'s wishlist`}
                    preventScrollReset
                  >
                    Edit
                  </Link>
                  {canDelete && (
                    <ConsoleDeleteButton
                      call="/admin/wishlist/delete"
                      body={{ id: item.id }}
                      what={`${name}'s wishlist`}
                      onDone={(message) => setNotice({ text: message, tone: "success" })}
                    />
                  )}
                </>
              );
            },
          },
        ]}
      />
    </>
  );
}
