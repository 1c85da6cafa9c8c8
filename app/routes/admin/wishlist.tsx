import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { WishlistCreateBody } from "../../../core/cms/console-schema.ts";
import type { RecordField } from "../../components/console/ConsoleRecordForm.tsx";
import { OrderedRecordsConsole } from "../../components/console/OrderedRecordsConsole.tsx";
import { PendingWishlistReview } from "../../components/console/PendingWishlistReview.tsx";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/wishlist";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  return {
    items: await ctx.services.cmsConsole.wishlist(user),
    pending: await ctx.services.educators.pendingWishlist(user),
    canDelete: user.role === "admin",
  };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.wishlist);

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
  const { items, pending, canDelete } = useLoaderData<typeof loader>();
  return (
    <>
      <OrderedRecordsConsole
        title="Teachers Wishlist"
        intro="The teachers' Amazon wishlists the home page shows, in this order."
        calls="/admin/wishlist"
        items={items}
        canDelete={canDelete}
        schema={WishlistCreateBody}
        fields={FIELDS}
        blank={EMPTY}
        valuesOf={(item) => ({
          first_name: item.first_name,
          last_name: item.last_name,
          school_location: item.school_location,
          amazon_wishlist: item.amazon_wishlist,
        })}
        nameOf={(item) => `${item.first_name} ${item.last_name}'s wishlist`}
        texts={{
          add: "Add a wishlist",
          newHeading: "New wishlist",
          submit: "Add wishlist",
          caption: "Teachers Wishlist entries",
          empty: "No wishlists yet.",
        }}
        columns={[
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
        ]}
      />
      <PendingWishlistReview items={pending} />
    </>
  );
}
