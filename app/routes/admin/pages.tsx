import { useState } from "react";
import { Link, useLoaderData, useNavigate } from "react-router";
import { requestContext } from "#app-context";
import { PRIVACY_POLICY_SLUG, PageCreateBody } from "../../../core/cms/console-schema.ts";
import type { PageForEditing } from "../../../core/cms/console-presenter.ts";
import { orNull } from "../../../core/not-found.ts";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleDeleteButton } from "../../components/console/ConsoleDeleteButton.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { useConsoleUrl } from "../../components/console/console-url.ts";
import { useTitleAndSlug } from "../../components/console/title-slug.ts";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { RichTextEditor } from "../../components/RichTextEditor.tsx";
import { apiCall } from "../../lib/api.ts";
import { useApiForm, type ApiAnswer, type FormMessage } from "../../lib/api-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { idParam } from "../../lib/console-content.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import { formatDate } from "../../lib/format.ts";
import type { Route } from "./+types/pages";
import "../../styles/submit.css";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const editId = idParam(new URL(request.url).searchParams.get("edit"));
  const [pages, editing] = await Promise.all([
    ctx.services.cmsConsole.pages(user),
    editId === null ? null : orNull(ctx.services.cmsConsole.page(user, editId)),
  ]);
  return { pages, editing, canDelete: user.role === "admin" };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.pages);

export const meta: Route.MetaFunction = () => consoleMeta("Pages");

/**
 * A page's title, slug and text in the site's rich editor. The slug of a new page follows its
 * title until typed; the privacy policy keeps its own. The server cleans the HTML with the
 * site's allow-list and answers the page as saved.
 */
function PageForm({
  page,
  onSaved,
  onCancel,
}: {
  page: PageForEditing | null;
  onSaved: (message: string) => void;
  onCancel: () => void;
}) {
  const intent = page ? "update" : "create";
  const posted = usePostedConsoleForm(intent);
  const form = useApiForm<{ title: string; slug: string; detail: string }, ApiAnswer>(
    PageCreateBody,
    (values) =>
      apiCall<ApiAnswer>(
        page ? "/admin/pages/update" : "/admin/pages/create",
        page ? { ...values, id: page.id } : values,
      ),
    (result) => onSaved(String(result.data.message ?? "Saved.")),
    {
      initial: { title: page?.title ?? "", slug: page?.slug ?? "", detail: page?.detail ?? "" },
      posted,
      idPrefix: "page",
      messageMs: 8000,
      invalidMessage: () => "Please correct the fields marked below.",
    },
  );
  const { title, slug } = useTitleAndSlug(form, page !== null);
  const detail = form.bind("detail");
  const fixedSlug = page?.slug === PRIVACY_POLICY_SLUG;
  const address = fixedSlug ? `/${PRIVACY_POLICY_SLUG}` : `/page/${slug.value || "…"}`;

  return (
    <section className="console-section" aria-labelledby="page-form-heading">
      <h2 id="page-form-heading">{page ? `Edit “${page.title}”` : "New page"}</h2>
      <ConsoleKitForm
        form={form}
        intent={intent}
        // The privacy policy's slug field is disabled, and a disabled field is not posted.
        hidden={page ? { id: page.id, ...(fixedSlug ? { slug: page.slug } : {}) } : {}}
        posted={posted}
        className="console-form"
      >
        <FormAlert message={form.message} />
        <Field {...title} label="Title" required maxLength={200} />
        <Field
          {...slug}
          label="Slug"
          required
          maxLength={80}
          disabled={fixedSlug}
          hint={
            fixedSlug
              ? `The privacy policy keeps its address, ${address}.`
              : `The page's address: ${address}. Lower-case words and dashes.`
          }
        />
        <RichTextEditor
          id={detail.id}
          label="Text"
          required
          value={detail.value}
          onChange={detail.onChange}
          error={detail.error}
          variant="page"
          postedName="detail"
        />
        <div className="console-form-actions">
          <SubmitButton busy={form.busy}>{page ? "Save changes" : "Create page"}</SubmitButton>
          <button type="button" className="btn btn-outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </ConsoleKitForm>
    </section>
  );
}

/** /admin/pages: the privacy policy and every other page the site owner writes. */
export default function PagesConsole() {
  const { pages, editing, canDelete } = useLoaderData<typeof loader>();
  const { listHref, creating } = useConsoleUrl();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const close = () => void navigate(listHref(), { replace: true, preventScrollReset: true });

  return (
    <>
      <div className="console-heading">
        <h1>Pages</h1>
        {!creating && !editing && (
          <Link to={listHref({ new: "1" })} className="btn btn-primary">
            New page
          </Link>
        )}
      </div>
      <p className="console-intro">
        Pages you write: the privacy policy at /{PRIVACY_POLICY_SLUG}, every other page at
        /page/&lt;slug&gt; (and in the sitemap).
      </p>
      <FormAlert message={notice} />
      {(creating || editing) && (
        <PageForm
          key={editing ? `edit-${editing.id}` : "new"}
          page={creating ? null : editing}
          onSaved={(message) => {
            setNotice({ text: message, tone: "success" });
            close();
          }}
          onCancel={close}
        />
      )}
      <ConsoleTable
        caption="Pages"
        rows={pages}
        rowKey={(page) => page.id}
        empty="No pages yet."
        columns={[
          { header: "Title", cell: (page) => page.title },
          {
            header: "Address",
            cell: (page) => (
              <a href={page.url} target="_blank" rel="noreferrer">
                {page.url}
              </a>
            ),
          },
          { header: "Updated", cell: (page) => formatDate(page.updated_at) },
          {
            header: "Actions",
            actions: true,
            cell: (page) => (
              <>
                <Link
                  to={listHref({ edit: String(page.id) })}
                  className="btn btn-sm console-btn-plain"
                  aria-label={`Edit ${page.title}`}
                  preventScrollReset
                >
                  Edit
                </Link>
                {canDelete && page.slug !== PRIVACY_POLICY_SLUG && (
                  <ConsoleDeleteButton
                    call="/admin/pages/delete"
                    body={{ id: page.id }}
                    what={`the page “${page.title}”`}
                    onDone={(message) => setNotice({ text: message, tone: "success" })}
                  />
                )}
              </>
            ),
          },
        ]}
      />
    </>
  );
}
