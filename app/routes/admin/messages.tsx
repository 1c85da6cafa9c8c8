import { useState } from "react";
import { Form, Link, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { CONTACT_CATEGORIES } from "../../../core/constants.ts";
import { ContactReplyBody, messagesQueryOf } from "../../../core/contact/console-schema.ts";
import type { ContactMessageDetail } from "../../../core/contact/console-service.ts";
import { orNull } from "../../../core/not-found.ts";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { useConsoleUrl } from "../../components/console/console-url.ts";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { Pager } from "../../components/Pager.tsx";
import { apiCall } from "../../lib/api.ts";
import { useApiForm, type ApiAnswer, type FormMessage } from "../../lib/api-form.ts";
import { formatDateTime } from "../../lib/date-time.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { idParam } from "../../lib/console-content.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/messages";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const params = new URL(request.url).searchParams;
  // The queue opens on what is still open; "all" shows every message.
  const query = messagesQueryOf({
    category: params.get("category") ?? "",
    status: params.get("status") ?? "open",
    page: params.get("page") ?? "",
  });
  const viewId = idParam(params.get("view"));
  const [list, viewing] = await Promise.all([
    ctx.services.contactConsole.list(user, query),
    viewId === null ? null : orNull(ctx.services.contactConsole.view(user, { id: viewId })),
  ]);
  return {
    list,
    viewing,
    filter: { category: query.category ?? "", status: query.status ?? "all" },
  };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.messages);

export const meta: Route.MetaFunction = () => consoleMeta("Messages");

function StatusBadge({ status }: { status: "open" | "resolved" }) {
  return (
    <span className={`console-badge ${status === "resolved" ? "success" : "danger"}`}>
      {status === "resolved" ? "Resolved" : "Open"}
    </span>
  );
}

/** The reply form: mailed to the sender, kept with the message, optionally resolving it. */
function ReplyForm({ message, onSent }: { message: ContactMessageDetail; onSent: () => void }) {
  const revalidator = useRevalidator();
  const [resolve, setResolve] = useState(message.status === "open");
  const posted = usePostedConsoleForm("reply");
  const form = useApiForm<{ body: string }, ApiAnswer>(
    ContactReplyBody.pick({ body: true }),
    (values) => apiCall<ApiAnswer>("/admin/messages/reply", { ...values, id: message.id, resolve }),
    async (result, current) => {
      current.show({ text: String(result.data.message ?? "Sent."), tone: "success" });
      current.reset();
      onSent();
      await revalidator.revalidate();
    },
    { initial: { body: "" }, posted, idPrefix: "reply", messageMs: 8000 },
  );
  return (
    <ConsoleKitForm form={form} intent="reply" hidden={{ id: message.id }} className="console-form">
      <FormAlert message={form.message} />
      <Field
        {...form.bind("body")}
        label={`Reply to ${message.name} <${message.email}>`}
        control="textarea"
        rows={6}
        maxLength={10000}
        required
        hint="Sent by mail with their message quoted below it."
      />
      {message.status === "open" && (
        <label className="console-check">
          <input
            type="checkbox"
            name="resolve"
            value="true"
            checked={resolve}
            onChange={(event) => setResolve(event.target.checked)}
          />{" "}
          Mark the message resolved
        </label>
      )}
      <div className="console-form-actions">
        <SubmitButton busy={form.busy}>Send reply</SubmitButton>
      </div>
    </ConsoleKitForm>
  );
}

function MessageView({ message, closeHref }: { message: ContactMessageDetail; closeHref: string }) {
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const statusDone = (answer: Record<string, unknown>) =>
    setNotice({ text: String(answer.message ?? "Saved."), tone: "success" });
  return (
    <section className="console-section" aria-labelledby="message-heading">
      <div className="console-heading">
        <h2 id="message-heading">{message.subject}</h2>
        <Link to={closeHref} className="btn btn-sm console-btn-plain" preventScrollReset>
          Close
        </Link>
      </div>
      <FormAlert message={notice} />
      <dl className="console-details">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={message.status} />
          {message.resolved_at && ` on ${formatDateTime(message.resolved_at)}`}
        </dd>
        <dt>From</dt>
        <dd>
          {message.name} &lt;<a href={`mailto:${message.email}`}>{message.email}</a>&gt;
          {message.user_id !== null && (
            <>
              {" · "}
              <a href={`/profile/${message.user_id}`} target="_blank" rel="noreferrer">
                their profile
              </a>
            </>
          )}
        </dd>
        <dt>Mobile</dt>
        <dd>{message.mobile}</dd>
        {message.website && (
          <>
            <dt>Website</dt>
            <dd>
              <a href={message.website} target="_blank" rel="noreferrer noopener nofollow">
                {message.website}
              </a>
            </dd>
          </>
        )}
        <dt>Category</dt>
        <dd>{message.category}</dd>
        <dt>Received</dt>
        <dd>{formatDateTime(message.created_at)}</dd>
        <dt>Reported item</dt>
        <dd>
          {message.item_link ? (
            <a href={message.item_link} target="_blank" rel="noreferrer">
              {message.item_link}
            </a>
          ) : (
            <span className="console-muted">None named</span>
          )}
        </dd>
      </dl>
      <div className="console-message-text">{message.message || "(no message text)"}</div>
      <div className="console-form-actions">
        {message.status === "open" ? (
          <ConsoleAction
            call="/admin/messages/resolve"
            body={{ id: message.id }}
            label="Mark resolved"
            tone="primary"
            onDone={statusDone}
          />
        ) : (
          <ConsoleAction
            call="/admin/messages/reopen"
            body={{ id: message.id }}
            label="Reopen"
            onDone={statusDone}
          />
        )}
      </div>
      <h3 className="console-subheading">Replies</h3>
      {message.history.length === 0 ? (
        <p className="console-muted">No reply yet.</p>
      ) : (
        <ol className="console-replies">
          {message.history.map((reply) => (
            <li key={reply.id}>
              <p className="console-muted">
                {reply.author_name || "Staff"}, {formatDateTime(reply.created_at)}
              </p>
              <div className="console-message-text">{reply.body}</div>
            </li>
          ))}
        </ol>
      )}
      <ReplyForm key={message.id} message={message} onSent={() => setNotice(null)} />
    </section>
  );
}

/** /admin/messages: the Contact Us messages as a queue. */
export default function MessagesConsole() {
  const { list, viewing, filter } = useLoaderData<typeof loader>();
  const { listHref } = useConsoleUrl();
  return (
    <>
      <h1>Messages</h1>
      <Form method="get" className="console-toolbar" key={`${filter.category}-${filter.status}`}>
        <div className="form-field">
          <label htmlFor="messages-category">Category</label>
          <select id="messages-category" name="category" defaultValue={filter.category}>
            <option value="">All categories</option>
            {CONTACT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="messages-status">Status</label>
          <select id="messages-status" name="status" defaultValue={filter.status}>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="all">All</option>
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          Show
        </button>
      </Form>
      {viewing && <MessageView message={viewing} closeHref={listHref()} />}
      <p className="console-count">{list.total === 1 ? "1 message" : `${list.total} messages`}</p>
      <ConsoleTable
        caption="Contact messages"
        rows={list.items}
        rowKey={(message) => message.id}
        empty="No messages here."
        columns={[
          { header: "Received", cell: (message) => formatDateTime(message.created_at) },
          {
            header: "From",
            cell: (message) => (
              <>
                {message.name}
                <br />
                <span className="console-muted">{message.email}</span>
              </>
            ),
          },
          { header: "Category", cell: (message) => message.category },
          {
            header: "Subject",
            cell: (message) => (
              <Link to={listHref({ view: String(message.id) })} preventScrollReset>
                {message.subject}
              </Link>
            ),
          },
          { header: "Status", cell: (message) => <StatusBadge status={message.status} /> },
          {
            header: "Item",
            cell: (message) =>
              message.item_link ? (
                <a href={message.item_link} target="_blank" rel="noreferrer">
                  {message.item_link}
                </a>
              ) : (
                <span className="console-muted">—</span>
              ),
          },
          { header: "Replies", cell: (message) => message.replies },
          {
            header: "Actions",
            actions: true,
            cell: (message) => (
              <Link
                to={listHref({ view: String(message.id) })}
                className="btn btn-sm console-btn-plain"
                aria-label={`Open the message “${message.subject}”`}
                preventScrollReset
              >
                Open
              </Link>
            ),
          },
        ]}
      />
      <Pager
        page={list.page}
        lastPage={list.lastPage}
        label="Messages pages"
        hrefFor={(page) => listHref({ page: String(page) })}
      />
    </>
  );
}
