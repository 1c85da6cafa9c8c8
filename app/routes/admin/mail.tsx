import { Link, useLoaderData, useLocation, useNavigate } from "react-router";
import { useState } from "react";
import { requestContext } from "#app-context";
import type { UndeliverableItem } from "../../../core/mail/console/presenter.ts";
import { UndeliverableClearBody, UndeliverableQuery } from "../../../core/mail/console/schema.ts";
import { Pager } from "../../components/Pager.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { FormAlert, SubmitButton } from "../../components/Form.tsx";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm, type FormMessage } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { consolePageHref, formatConsoleTime, readConsoleQuery } from "../../lib/console-query.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { formatDate } from "../../lib/format.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import type { Route } from "./+types/mail";

/** The query parameter of the question asked before a clear, for a browser without scripts. */
const CLEAR_PARAM = "clear";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const admin = requireConsoleUser(ctx, "admin");
  const mail = ctx.services.mailConsole;
  const { query } = readConsoleQuery(UndeliverableQuery, request.url);
  const asked = UndeliverableClearBody.safeParse({
    address: new URL(request.url).searchParams.get(CLEAR_PARAM) ?? "",
  });
  const [summary, list, confirming] = await Promise.all([
    mail.summary(admin),
    mail.undeliverable(admin, query),
    asked.success ? mail.listedAddress(admin, asked.data) : null,
  ]);
  return { summary, list, confirming };
}

/** The page's "clear" form posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.mail);

export const meta: Route.MetaFunction = () => consoleMeta("Mail");

/** The page's address with `?clear=` set to `address`, or without it (null); the page kept. */
function clearHref(search: string, address: string | null): string {
  const params = new URLSearchParams(search);
  if (address === null) params.delete(CLEAR_PARAM);
  else params.set(CLEAR_PARAM, address);
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/** "Nov 29": a day of the last 30, short enough for four columns on a phone. */
const shortDay = (day: string) => formatDate(`${day}T00:00:00Z`).replace(/, \d{4}$/, "");

const confirmQuestion = (address: string) => `Clear ${address}?`;
const CONFIRM_NOTE = "Mail is sent to it again. If it still refuses mail, it is listed again.";

/**
 * A row's Clear: once the scripts run, a button that asks in the console's dialog and calls
 * `POST /api/admin/mail/undeliverable/clear`; before that, a link to the same question as a form
 * of the page (`?clear=`).
 */
function ClearAction({
  address,
  onCleared,
}: {
  address: string;
  onCleared: (message: FormMessage) => void;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  if (!hydrated) {
    return (
      <Link
        to={clearHref(location.search, address)}
        className="btn btn-sm console-btn-danger"
        aria-label={`Clear ${address}`}
      >
        Clear
      </Link>
    );
  }
  return (
    <ConsoleAction
      call="/admin/mail/undeliverable/clear"
      body={{ address }}
      label="Clear"
      tone="danger"
      confirm={confirmQuestion(address)}
      onDone={(answer) => onCleared({ text: messageOf(answer), tone: "success" })}
    />
  );
}

/** The question before a clear as a form of the page (the Clear link's `?clear=`). */
function ConfirmClear({
  item,
  onCleared,
}: {
  item: UndeliverableItem;
  onCleared: (message: FormMessage) => void;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const form = useApiForm(
    UndeliverableClearBody,
    (values) => apiCall("/admin/mail/undeliverable/clear", values),
    async (result) => {
      onCleared({ text: messageOf(result.data), tone: "success" });
      await navigate(clearHref(location.search, null), { replace: true });
    },
    { initial: { address: item.address }, idPrefix: "clear" },
  );
  return (
    <ConsoleKitForm
      form={form}
      intent="clear"
      hidden={{ address: item.address }}
      className="form card mail-confirm"
      aria-labelledby="mail-clear-question"
    >
      <h3 id="mail-clear-question" className="confirm-dialog-title">
        {confirmQuestion(item.address)}
      </h3>
      <p>{CONFIRM_NOTE}</p>
      <p className="console-note">Refused: {item.reason}</p>
      <FormAlert message={form.message} />
      <div className="confirm-dialog-actions">
        <Link to={clearHref(location.search, null)} className="btn btn-outline">
          Cancel
        </Link>
        <SubmitButton busy={form.busy} className="btn btn-danger">
          Clear
        </SubmitButton>
      </div>
    </ConsoleKitForm>
  );
}

/**
 * /admin/mail (administrators): the mail queue now, mail sent, failed and suppressed per day, and
 * the addresses no mail goes to, each with a Clear that lets mail go to it again (audited).
 */
export default function MailConsole() {
  const { summary, list, confirming } = useLoaderData<typeof loader>();
  const location = useLocation();
  const posted = usePostedConsoleForm("clear");
  const [notice, setNotice] = useState<FormMessage | null>(
    posted?.message ? { text: posted.message, tone: posted.ok ? "success" : "danger" } : null,
  );
  const { queue } = summary;
  const figures = [
    { label: "Waiting", value: queue.waiting, note: "not tried yet" },
    { label: "Retrying", value: queue.retrying, note: "tried, to be tried again" },
    { label: "Sending", value: queue.sending, note: "being sent now" },
    { label: "Failed", value: queue.failed, note: "given up" },
  ];
  return (
    <>
      <h1>Mail</h1>
      <section className="console-section" aria-labelledby="mail-queue-heading">
        <h2 id="mail-queue-heading">Queue</h2>
        <ul className="console-stats" aria-label="Mail in the queue now">
          {figures.map((figure) => (
            <li key={figure.label} className="console-stat">
              <strong>{figure.value}</strong> {figure.label}
              <span className="console-stat-note"> {figure.note}</span>
            </li>
          ))}
        </ul>
        <p className="console-note">Mail sent and failed each day is counted below.</p>
      </section>
      <section className="console-section" aria-labelledby="mail-daily-heading">
        <h2 id="mail-daily-heading">Sent and failed, last 30 days</h2>
        <div className="console-table-wrap">
          <table className="console-numbers">
            <caption className="visually-hidden">
              Mail sent, failed and suppressed per day (UTC), newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Sent</th>
                <th scope="col">Failed</th>
                <th scope="col">Suppressed</th>
              </tr>
            </thead>
            <tbody>
              {summary.daily.map((day) => (
                <tr key={day.day}>
                  <th scope="row">
                    <time dateTime={day.day}>{shortDay(day.day)}</time>
                  </th>
                  <td>{day.sent}</td>
                  <td>{day.failed}</td>
                  <td>{day.suppressed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="console-note">
          Suppressed: not sent because the address is on the undeliverable list.
        </p>
      </section>
      <section className="console-section" aria-labelledby="mail-undeliverable-heading">
        <h2 id="mail-undeliverable-heading">
          Undeliverable addresses <span className="console-badge">{list.total}</span>
        </h2>
        <p className="queue-help">
          A receiving server refused mail to these addresses for good, or they kept failing for a
          day, so no mail goes to them. Clear one when its owner has fixed it.
        </p>
        <FormAlert message={notice} />
        {confirming && <ConfirmClear item={confirming} onCleared={setNotice} />}
        <ConsoleTable
          caption="Undeliverable addresses, latest failure first"
          rows={list.addresses}
          rowKey={(item) => item.address}
          empty="No address is undeliverable."
          columns={[
            { header: "Address", cell: (item) => item.address },
            { header: "Reason", cell: (item) => item.reason },
            {
              header: "Failed",
              cell: (item) => (
                <time dateTime={item.failed_at}>{formatConsoleTime(item.failed_at)}</time>
              ),
            },
            {
              header: "Actions",
              actions: true,
              cell: (item) => <ClearAction address={item.address} onCleared={setNotice} />,
            },
          ]}
        />
        <Pager
          page={list.currentPage}
          lastPage={list.lastPage}
          hrefFor={(page) => consolePageHref(clearHref(location.search, null), page)}
          label="Undeliverable address pages"
        />
      </section>
    </>
  );
}
