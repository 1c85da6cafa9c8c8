import { useState } from "react";
import { Link, data, redirect, useActionData, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import {
  EDUCATOR_LINK_TTL_HOURS,
  EDUCATOR_NOTE_MAX,
  EDUCATOR_NOTE_MIN,
  ReviewRequestBody,
  SchoolEmailBody,
} from "../../core/people/educators/schema.ts";
import { EducatorBadge } from "../components/EducatorBadge.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm, type FormOutcome } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { formatDateTime } from "../lib/date-time.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/verify-educator";

/** The signed-in member's verification state; a visitor goes to /login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  if (!user.email_verified) return { confirmed: false as const };
  return {
    confirmed: true as const,
    ...(await services.educators.status(user)),
    csrfToken: csrfToken(),
  };
}

/** The page's two forms, told apart by their hidden `intent` field. */
type Intent = "school_email" | "review";

/**
 * Either form posted to the page: the same check and service as its JSON call
 * (`POST /api/educator_verification/school_email` or `/review`), and the answer is marked with
 * the form's intent so that only that form shows it. A visitor goes to /login, as the loader
 * sends them.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const posted = await request.clone().formData();
  const intent: Intent = posted.get("intent") === "review" ? "review" : "school_email";
  const answer =
    intent === "review"
      ? await formAction(
          request,
          ReviewRequestBody,
          async (input) => (await services.educators.requestReview(user, input)).message,
        )
      : await formAction(
          request,
          SchoolEmailBody,
          async (input) => (await services.educators.requestBySchoolEmail(user, input)).message,
        );
  return data({ ...answer.data, intent }, answer.init ?? undefined);
}

/** The action's answer if it is `intent`'s form's. */
function usePosted(intent: Intent): FormOutcome | undefined {
  const posted = useActionData<typeof action>();
  return posted?.intent === intent ? posted : undefined;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Get verified as an educator",
    path: "/user/verify-educator",
    noindex: true,
  });

type Loaded = Extract<Awaited<ReturnType<typeof loader>>, { confirmed: true }>;

const METHOD_WORDS = { school_email: "by school address", review: "by a moderator's review" };

/** The member's latest request, in words, with a way to withdraw it while it waits. */
function RequestState({ request }: { request: NonNullable<Loaded["request"]> }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function withdraw() {
    setBusy(true);
    setError(null);
    const result = await apiCall("/educator_verification/withdraw", {});
    if (result.ok) await revalidator.revalidate();
    else setError(messageOf(result.data, "That did not work. Please try again."));
    setBusy(false);
  }
  const how = METHOD_WORDS[request.method];
  return (
    <div className="card educators-state" aria-labelledby="request-heading">
      <h2 id="request-heading">Your request</h2>
      {request.status === "pending" && request.method === "school_email" && (
        <p>
          We sent a confirmation link to <strong>{request.school_email}</strong>. Open it before{" "}
          {formatDateTime(request.expires_at!)} (UTC) to be verified. Nothing arrived? Check the
          spam folder, or withdraw the request and ask again.
        </p>
      )}
      {request.status === "pending" && request.method === "review" && (
        <p>
          Your note is waiting for a moderator (sent {formatDateTime(request.created_at)} UTC). You
          will find the answer in your <Link to="/user/notifications">notifications</Link>.
        </p>
      )}
      {request.status === "rejected" && (
        <p className="alert alert-danger">
          Your last request ({how}) was not approved: {request.reason} You can ask again below.
        </p>
      )}
      {request.status === "expired" && (
        <p className="alert alert-danger">
          The link we sent to {request.school_email} expired before it was opened. You can ask again
          below.
        </p>
      )}
      {request.status === "withdrawn" && <p>You withdrew your last request ({how}).</p>}
      {request.status === "pending" && (
        <>
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => void withdraw()}
            disabled={busy}
            aria-busy={busy || undefined}
          >
            Withdraw this request
          </button>
          <div aria-live="polite" role="status">
            {error && <p className="alert alert-danger">{error}</p>}
          </div>
        </>
      )}
    </div>
  );
}

function SchoolEmailForm({
  accepted,
  csrfToken,
}: {
  accepted: Loaded["accepted_domains"];
  csrfToken: string;
}) {
  const revalidator = useRevalidator();
  const posted = usePosted("school_email");
  const form = useApiForm(
    SchoolEmailBody,
    (values) => apiCall("/educator_verification/school_email", values),
    (result, form) => {
      form.show({ text: messageOf(result.data, ""), tone: "success" }, { keep: true });
      void revalidator.revalidate();
    },
    { initial: { email: "" }, posted, idPrefix: "school" },
  );
  const domains = [...accepted.built_in, ...accepted.listed].join(", ");
  return (
    <section className="card" aria-labelledby="school-heading">
      <h2 id="school-heading">With your school email address</h2>
      <p>
        We email a confirmation link to your school or district address. It works once, for{" "}
        {EDUCATOR_LINK_TTL_HOURS} hours. Accepted: {domains}.
      </p>
      <FormAlert message={form.message} />
      <KitForm form={form} csrfToken={csrfToken} aria-label="With your school email address">
        <input type="hidden" name="intent" value="school_email" />
        <Field
          {...form.bind("email")}
          label="School email address"
          type="email"
          inputMode="email"
          autoComplete="work email"
          placeholder="name@school.edu"
          required
        />
        <div>
          <SubmitButton busy={form.busy}>Send confirmation link</SubmitButton>
        </div>
      </KitForm>
    </section>
  );
}

function ReviewForm({ csrfToken }: { csrfToken: string }) {
  const revalidator = useRevalidator();
  const posted = usePosted("review");
  const form = useApiForm(
    ReviewRequestBody,
    (values) => apiCall("/educator_verification/review", values),
    (result, form) => {
      form.show({ text: messageOf(result.data, ""), tone: "success" }, { keep: true });
      void revalidator.revalidate();
    },
    { initial: { note: "" }, posted, idPrefix: "review" },
  );
  return (
    <section className="card" aria-labelledby="review-heading">
      <h2 id="review-heading">With a moderator&apos;s review</h2>
      <p>
        No school address? Tell our moderators where and what you teach, and how they can check it
        (a school web page that lists you, for example). Please leave out anything private.
      </p>
      <FormAlert message={form.message} />
      <KitForm form={form} csrfToken={csrfToken} aria-label="With a moderator's review">
        <input type="hidden" name="intent" value="review" />
        <Field
          {...form.bind("note")}
          label="A short note for the moderators"
          control="textarea"
          rows={5}
          maxLength={EDUCATOR_NOTE_MAX}
          hint={`${EDUCATOR_NOTE_MIN} to ${EDUCATOR_NOTE_MAX} characters.`}
          required
        />
        <div>
          <SubmitButton busy={form.busy}>Send for review</SubmitButton>
        </div>
      </KitForm>
    </section>
  );
}

/** /user/verify-educator: ask to be verified by school address or by a moderator's review. */
export default function VerifyEducator() {
  const data = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  return (
    <div className="container educators-page">
      <h1 className="page-title">Get verified as an educator</h1>
      {!data.confirmed ? (
        <p className="alert alert-danger">
          Please confirm your account&apos;s email address first: use the link we emailed you, or{" "}
          <Link to="/verify">ask for a new one</Link>.
        </p>
      ) : data.verified_educator ? (
        <>
          <p className="educators-state">
            You are a verified educator <EducatorBadge verified />. The badge shows on your profile,
            your posts and your comments.
          </p>
          <p>
            <Link className="btn btn-primary" to="/user/wishlist/new">
              Add your Teachers Wishlist
            </Link>
          </p>
        </>
      ) : (
        <>
          <p>
            Teachers and school staff get a <strong>Verified educator</strong> badge on their
            profile, posts and comments, and can add their own Teachers Wishlist. Ask in either of
            two ways.
          </p>
          {/* A form posted without JavaScript: its success, where the forms were. */}
          {data.request?.status === "pending" && posted?.ok && posted.message && (
            <FormAlert message={{ text: posted.message, tone: "success" }} />
          )}
          {data.request && <RequestState request={data.request} />}
          {data.request?.status !== "pending" && (
            <>
              <SchoolEmailForm accepted={data.accepted_domains} csrfToken={data.csrfToken} />
              <ReviewForm csrfToken={data.csrfToken} />
            </>
          )}
        </>
      )}
    </div>
  );
}
