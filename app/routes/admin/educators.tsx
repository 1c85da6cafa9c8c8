import { Link, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import type { PendingEducatorReview } from "../../../core/people/educators/presenter.ts";
import { SchoolDomainBody } from "../../../core/people/educators/schema.ts";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consoleMeta } from "../../lib/console-meta.ts";
import { formatDate } from "../../lib/format.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import type { Route } from "./+types/educators";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx, "moderator");
  return ctx.services.educators.consoleOverview(user);
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.educators);

export const meta: Route.MetaFunction = () => consoleMeta("Verified educators");

function RequestActions({ request }: { request: PendingEducatorReview }) {
  return (
    <div className="console-row-actions">
      <ConsoleAction
        call="/admin/educators/approve"
        body={{ id: request.id }}
        label="Approve"
        tone="primary"
        confirm={`Mark ${request.user_name} as a verified educator?`}
      />
      <ConsoleAction
        call="/admin/educators/reject"
        body={{ id: request.id }}
        label="Reject"
        tone="danger"
        askReason
        confirm={`Reject ${request.user_name}'s request? They are told your reason.`}
      />
    </div>
  );
}

function AddDomainForm() {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm("add-domain");
  const form = useApiForm(
    SchoolDomainBody,
    (values) => apiCall("/admin/school_domains/add", values),
    (result, form) => {
      form.show({ text: messageOf(result.data, ""), tone: "success" });
      form.reset();
      void revalidator.revalidate();
    },
    { initial: { domain: "" }, posted, idPrefix: "school" },
  );
  return (
    <>
      <FormAlert message={form.message} />
      <ConsoleKitForm form={form} intent="add-domain" className="form educators-actions">
        <Field
          {...form.bind("domain")}
          label="Add a school or district domain"
          placeholder="schools.nyc.gov"
          hint="Its subdomains count too. Free mail providers are refused."
          required
          maxLength={253}
        />
        <SubmitButton busy={form.busy}>Add domain</SubmitButton>
      </ConsoleKitForm>
    </>
  );
}

/** /admin/educators: requests to be verified by review, and the list of school domains. */
export default function EducatorsConsole() {
  const { requests, pending_total, built_in_domains, domains } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Verified educators</h1>
      <section className="console-section" aria-labelledby="requests-heading">
        <h2 id="requests-heading" className="console-section-title">
          Requests to review <span className="console-badge">{pending_total}</span>
        </h2>
        <p className="queue-help">
          Members without a school address ask with a note. Approve to give them the Verified
          educator badge; reject with a reason they are shown. Requests by school address confirm
          themselves through the mailed link. To unmark someone, use the Users page.
        </p>
        <ConsoleTable
          caption="Requests to review, oldest first"
          rows={requests}
          rowKey={(request) => request.id}
          empty="No requests to review."
          columns={[
            {
              header: "Member",
              cell: (request) => (
                <>
                  <Link to={`/profile/${request.user_id}`}>{request.user_name}</Link>
                  <br />
                  <small>
                    {request.user_email} · {request.user_type || "Member"} · joined{" "}
                    {formatDate(request.user_joined)}
                  </small>
                </>
              ),
            },
            {
              header: "Note",
              cell: (request) => <p className="educators-note">{request.note}</p>,
            },
            { header: "Sent", cell: (request) => formatDate(request.created_at) },
            {
              header: "Actions",
              actions: true,
              cell: (request) => <RequestActions request={request} />,
            },
          ]}
        />
      </section>
      <section className="console-section" aria-labelledby="domains-heading">
        <h2 id="domains-heading" className="console-section-title">
          School domains
        </h2>
        <p className="queue-help">
          Addresses under {built_in_domains.join(" and ")} are always accepted. Add the domains of
          schools and districts that use others.
        </p>
        {domains.length === 0 ? (
          <p>No other domains yet.</p>
        ) : (
          <ul className="educators-domains" aria-label="Accepted school domains">
            {domains.map((domain) => (
              <li key={domain}>
                {domain}
                <ConsoleAction
                  call="/admin/school_domains/remove"
                  body={{ domain }}
                  label={`Remove ${domain}`}
                  tone="danger"
                  confirm={`Stop accepting addresses at ${domain}? People verified already stay verified.`}
                />
              </li>
            ))}
          </ul>
        )}
        <AddDomainForm />
      </section>
    </>
  );
}
