import { useState } from "react";
import { Link, useLoaderData, useNavigate } from "react-router";
import { requestContext } from "#app-context";
import { SOCIAL_ICONS, SocialLinkCreateBody } from "../../../core/settings/social-links-schema.ts";
import { ConsoleDeleteButton } from "../../components/console/ConsoleDeleteButton.tsx";
import { ConsoleMoveButtons } from "../../components/console/ConsoleMoveButtons.tsx";
import {
  ConsoleRecordForm,
  type RecordField,
} from "../../components/console/ConsoleRecordForm.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { useConsoleUrl } from "../../components/console/console-url.ts";
import { FormAlert } from "../../components/Form.tsx";
import { SocialIcon } from "../../components/SocialIcon.tsx";
import type { FormMessage } from "../../lib/api-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import type { Route } from "./+types/social";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  return {
    items: await ctx.services.socialLinksConsole.list(user),
    canDelete: user.role === "admin",
  };
}

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
        <h1>Social links</h1>
        {!creating && !edited && (
          <Link to={listHref({ new: "1" })} className="btn btn-primary">
            Add a link
          </Link>
        )}
      </div>
      <p className="console-intro">The icons every page's footer shows, in this order.</p>
      <FormAlert message={notice} />
      {(creating || edited) && (
        <ConsoleRecordForm
          key={edited ? `edit-${edited.id}` : "new"}
          heading={edited ? `Edit the ${edited.name} link` : "New social link"}
          call={edited ? "/admin/social/update" : "/admin/social/create"}
          schema={SocialLinkCreateBody}
          fields={FIELDS}
          initial={
            edited
              ? {
                  name: edited.name,
                  social_url: edited.social_url,
                  social_image: edited.social_image,
                }
              : { name: "", social_url: "", social_image: "" }
          }
          extra={edited ? { id: edited.id } : {}}
          submitLabel={edited ? "Save changes" : "Add link"}
          onSaved={saved}
          onCancel={() => void navigate(listHref(), { preventScrollReset: true })}
        />
      )}
      <ConsoleTable
        caption="Social links"
        rows={items}
        rowKey={(item) => item.id}
        empty="No social links yet."
        columns={[
          { header: "#", cell: (item) => item.position },
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
          {
            header: "Actions",
            actions: true,
            cell: (item) => {
              const index = items.indexOf(item);
              return (
                <>
                  <ConsoleMoveButtons
                    call="/admin/social/move"
                    body={{ id: item.id }}
                    label={`the ${item.name} link`}
                    first={index === 0}
                    last={index === items.length - 1}
                  />
                  <Link
                    to={listHref({ edit: String(item.id) })}
                    className="btn btn-sm console-btn-plain"
                    aria-label={`Edit the ${item.name} link`}
                    preventScrollReset
                  >
                    Edit
                  </Link>
                  {canDelete && (
                    <ConsoleDeleteButton
                      call="/admin/social/delete"
                      body={{ id: item.id }}
                      what={`the ${item.name} link`}
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
