import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { SOCIAL_ICONS } from "../../../core/settings/social-icons.ts";
import { SocialLinkCreateBody } from "../../../core/settings/social-links-schema.ts";
import type { RecordField } from "../../components/console/ConsoleRecordForm.tsx";
import { OrderedRecordsConsole } from "../../components/console/OrderedRecordsConsole.tsx";
import { SocialIcon } from "../../components/SocialIcon.tsx";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/social";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  return {
    items: await ctx.services.socialLinksConsole.list(user),
    canDelete: user.role === "admin",
  };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.social);

export const meta: Route.MetaFunction = () => consoleMeta("Social links");

const FIELDS: RecordField[] = [
  { name: "name", label: "Name", required: true, maxLength: 60, hint: "Read out for the icon." },
  {
    name: "social_url",
    label: "Address",
    required: true,
    type: "url",
    inputMode: "url",
    maxLength: 500,
    placeholder: "https://",
  },
  {
    name: "social_image",
    label: "Icon",
    required: true,
    control: "select",
    placeholder: "Choose an icon",
    options: SOCIAL_ICONS.map((icon) => ({ value: icon.value, label: icon.label })),
  },
];

const ICON_LABELS = new Map<string, string>(SOCIAL_ICONS.map((icon) => [icon.value, icon.label]));

/** /admin/social: the footer's social links, in their order. */
export default function SocialConsole() {
  const { items, canDelete } = useLoaderData<typeof loader>();
  return (
    <OrderedRecordsConsole
      title="Social links"
      intro="The icons every page's footer shows, in this order."
      calls="/admin/social"
      items={items}
      canDelete={canDelete}
      schema={SocialLinkCreateBody}
      fields={FIELDS}
      blank={{ name: "", social_url: "", social_image: "" }}
      valuesOf={(item) => ({
        name: item.name,
        social_url: item.social_url,
        social_image: item.social_image,
      })}
      nameOf={(item) => `the ${item.name} link`}
      texts={{
        add: "Add a link",
        newHeading: "New social link",
        submit: "Add link",
        caption: "Social links",
        empty: "No social links yet.",
      }}
      columns={[
        {
          header: "Icon",
          cell: (item) => (
            <span className="console-icon">
              <SocialIcon icon={item.social_image} />{" "}
              {ICON_LABELS.get(item.social_image) ?? item.social_image}
            </span>
          ),
        },
        { header: "Name", cell: (item) => item.name },
        {
          header: "Address",
          cell: (item) => (
            <a href={item.social_url} target="_blank" rel="noreferrer noopener">
              {item.social_url}
            </a>
          ),
        },
      ]}
    />
  );
}
