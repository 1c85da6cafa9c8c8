import { useState } from "react";
import { Link, useLoaderData, useNavigate, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import {
  ForumCategoryCreateBody,
  ForumCategoryUpdateBody,
  ForumCreateBody,
} from "../../../core/forums/console-schema.ts";
import type { ForumConsoleItem } from "../../../core/forums/console-service.ts";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleDeleteButton } from "../../components/console/ConsoleDeleteButton.tsx";
import { ConsoleMoveButtons } from "../../components/console/ConsoleMoveButtons.tsx";
import {
  ConsoleRecordForm,
  type RecordField,
} from "../../components/console/ConsoleRecordForm.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { useConsoleUrl } from "../../components/console/console-url.ts";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { apiCall } from "../../lib/api.ts";
import { useApiForm, type ApiAnswer, type FormMessage } from "../../lib/api-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/forums";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  return {
    forums: await ctx.services.forumsConsole.list(user),
    canDelete: user.role === "admin",
  };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.forums);

export const meta: Route.MetaFunction = () => consoleMeta("Forums");

const TYPE_LABEL = { d: "Deals forum", g: "Educators' forum" } as const;
const KIND_LABEL = { deal: "deal categories", discussion: "discussion categories" } as const;

const FORUM_FIELDS: RecordField[] = [
  { name: "title", label: "Title", required: true, maxLength: 120 },
  {
    name: "slug",
    label: "Slug",
    maxLength: 80,
    hint: "Lower-case words and dashes; left empty, it is made from the title.",
  },
  { name: "detail", label: "Description", control: "textarea", rows: 3, maxLength: 1000 },
  {
    name: "type",
    label: "Type",
    required: true,
    control: "select",
    placeholder: "Choose a type",
    options: [
      { value: "d", label: "Deals forum (its categories are deal categories)" },
      { value: "g", label: "Educators' forum (its categories are discussion categories)" },
    ],
  },
];

const CATEGORY_FIELDS: RecordField[] = [
  { name: "title", label: "Title", required: true, maxLength: 100 },
];

/** A forum's "add a category" line. */
function AddCategory({
  forum,
  onAdded,
}: {
  forum: ForumConsoleItem;
  onAdded: (message: string) => void;
}) {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm(`category-create:${forum.id}`);
  const form = useApiForm<{ title: string }, ApiAnswer>(
    ForumCategoryCreateBody.pick({ title: true }),
    (values) =>
      apiCall<ApiAnswer>("/admin/forum_categories/create", { ...values, forum_id: forum.id }),
    async (result, current) => {
      onAdded(String(result.data.message ?? "Added."));
      current.reset();
      await revalidator.revalidate();
    },
    { initial: { title: "" }, posted, idPrefix: `forum-${forum.id}-new`, messageMs: 8000 },
  );
  return (
    <ConsoleKitForm
      form={form}
      intent={`category-create:${forum.id}`}
      hidden={{ forum_id: forum.id }}
      className="console-toolbar"
    >
      <FormAlert message={form.message} />
      <Field
        {...form.bind("title")}
        label={`New category in ${forum.title}`}
        maxLength={100}
        mark="none"
      />
      <SubmitButton busy={form.busy}>Add category</SubmitButton>
    </ConsoleKitForm>
  );
}

/** /admin/forums: the forums and their categories (the Submit Deals forms' choices), in order. */
export default function ForumsConsole() {
  const { forums, canDelete } = useLoaderData<typeof loader>();
  const { listHref, creating, editing } = useConsoleUrl();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const categories = forums.flatMap((forum) => forum.categories);
  const editedForum = editing?.startsWith("forum-")
    ? forums.find((forum) => `forum-${forum.id}` === editing)
    : undefined;
  const editedCategory = editing?.startsWith("category-")
    ? categories.find((category) => `category-${category.id}` === editing)
    : undefined;
  const done = (message: string) => setNotice({ text: message, tone: "success" });
  const close = () => void navigate(listHref(), { replace: true, preventScrollReset: true });

  return (
    <>
      <div className="console-heading">
        <h1>Forums</h1>
        {!creating && !editing && (
          <Link to={listHref({ new: "forum" })} className="btn btn-primary">
            New forum
          </Link>
        )}
      </div>
      <p className="console-intro">
        The forum list's forums, in this order. A deals forum's categories are the Submit Deals
        form's deal categories; the educators' forum's are its discussion categories.
      </p>
      <FormAlert message={notice} />
      {(creating === "forum" || editedForum) && (
        <ConsoleRecordForm
          key={editedForum ? `forum-${editedForum.id}` : "new"}
          heading={editedForum ? `Edit the forum “${editedForum.title}”` : "New forum"}
          call={editedForum ? "/admin/forums/update" : "/admin/forums/create"}
          intent={editedForum ? "forum-update" : "forum-create"}
          schema={ForumCreateBody}
          fields={FORUM_FIELDS}
          initial={
            editedForum
              ? {
                  title: editedForum.title,
                  slug: editedForum.slug,
                  detail: editedForum.detail,
                  type: editedForum.type,
                }
              : { title: "", slug: "", detail: "", type: "" }
          }
          extra={editedForum ? { id: editedForum.id } : {}}
          submitLabel={editedForum ? "Save changes" : "Create forum"}
          onSaved={(message) => {
            done(message);
            close();
          }}
          onCancel={close}
        />
      )}
      {editedCategory && (
        <ConsoleRecordForm
          key={`category-${editedCategory.id}`}
          heading={`Rename the category “${editedCategory.title}”`}
          call="/admin/forum_categories/update"
          intent="category-update"
          schema={ForumCategoryUpdateBody.pick({ title: true })}
          fields={CATEGORY_FIELDS}
          initial={{ title: editedCategory.title }}
          extra={{ id: editedCategory.id }}
          submitLabel="Save changes"
          onSaved={(message) => {
            done(message);
            close();
          }}
          onCancel={close}
        />
      )}
      {forums.length === 0 && <p className="console-empty">No forums yet.</p>}
      {forums.map((forum, index) => (
        <section
          key={forum.id}
          className="console-section"
          aria-labelledby={`forum-${forum.id}-title`}
        >
          <div className="console-heading">
            <h2 id={`forum-${forum.id}-title`}>
              {forum.title} <span className="console-badge">{TYPE_LABEL[forum.type]}</span>
            </h2>
            <span className="actions">
              <ConsoleMoveButtons
                call="/admin/forums/move"
                body={{ id: forum.id }}
                label={`the forum ${forum.title}`}
                first={index === 0}
                last={index === forums.length - 1}
              />
              <Link
                to={listHref({ edit: `forum-${forum.id}` })}
                className="btn btn-sm console-btn-plain"
                aria-label={`Edit the forum ${forum.title}`}
                preventScrollReset
              >
                Edit
              </Link>
              {canDelete && (
                <ConsoleDeleteButton
                  call="/admin/forums/delete"
                  body={{ id: forum.id }}
                  what={`the forum “${forum.title}”`}
                  onDone={done}
                />
              )}
            </span>
          </div>
          <p className="console-muted">
            <code>{forum.slug}</code>
            {forum.detail && ` · ${forum.detail}`}
          </p>
          <h3 className="console-subheading">
            {forum.type === "d" ? "Deal" : "Discussion"} categories
          </h3>
          <ConsoleTable
            caption={`${forum.title}: ${KIND_LABEL[forum.type === "d" ? "deal" : "discussion"]}`}
            rows={forum.categories}
            rowKey={(category) => category.id}
            empty="No categories yet."
            columns={[
              { header: "#", cell: (category) => category.position },
              { header: "Category", cell: (category) => category.title },
              { header: "Posts", cell: (category) => category.posts },
              {
                header: "Actions",
                actions: true,
                cell: (category) => {
                  const at = forum.categories.indexOf(category);
                  return (
                    <>
                      <ConsoleMoveButtons
                        call="/admin/forum_categories/move"
                        body={{ id: category.id }}
                        label={category.title}
                        first={at === 0}
                        last={at === forum.categories.length - 1}
                      />
                      <Link
                        to={listHref({ edit: `category-${category.id}` })}
                        className="btn btn-sm console-btn-plain"
                        aria-label={`Rename ${category.title}`}
                        preventScrollReset
                      >
                        Rename
                      </Link>
                      {canDelete && (
                        <ConsoleDeleteButton
                          call="/admin/forum_categories/delete"
                          body={{ id: category.id }}
                          what={`the category “${category.title}”`}
                          inUse={category.posts}
                          usedNoun="post"
                          choices={categories
                            .filter((other) => other.kind === category.kind)
                            .filter((other) => other.id !== category.id)
                            .map((other) => ({ id: other.id, title: other.title }))}
                          onDone={done}
                        />
                      )}
                    </>
                  );
                },
              },
            ]}
          />
          <AddCategory forum={forum} onAdded={done} />
        </section>
      ))}
    </>
  );
}
