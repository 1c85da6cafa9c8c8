import { Link, redirect, useActionData, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { OwnWishlistBody } from "../../core/people/educators/schema.ts";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/wishlist-new";

/** The member's own entries and whether they may add one; a visitor goes to /login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  if (!user.email_verified) {
    return { verified_educator: false, entries: [], csrfToken: csrfToken() };
  }
  return { ...(await services.educators.ownWishlist(user)), csrfToken: csrfToken() };
}

/**
 * The form posted to the page: the same check and service as `POST /api/wishlist_submit`, which
 * refuses anyone but a verified educator. A visitor goes to /login, as the loader sends them.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  return formAction(
    request,
    OwnWishlistBody,
    async (input) => (await services.educators.submitWishlist(user, input)).message,
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Add your Teachers Wishlist",
    path: "/user/wishlist/new",
    noindex: true,
  });

const STATUS_WORDS = {
  pending: "Waiting for a moderator",
  approved: "On the home page",
  rejected: "Not approved",
} as const;

const EMPTY = { first_name: "", last_name: "", school_location: "", amazon_wishlist: "" };

function WishlistForm({ csrfToken }: { csrfToken: string }) {
  const revalidator = useRevalidator();
  const posted = useActionData<typeof action>();
  const form = useApiForm(
    OwnWishlistBody,
    (values) => apiCall("/wishlist_submit", values),
    (result, form) => {
      form.show({ text: messageOf(result.data, ""), tone: "success" }, { keep: true });
      form.reset();
      void revalidator.revalidate();
    },
    { initial: EMPTY, posted, idPrefix: "wishlist" },
  );
  return (
    <section className="card" aria-labelledby="wishlist-form-heading">
      <h2 id="wishlist-form-heading">Your wishlist</h2>
      <div className="educators-why" id="wishlist-why">
        <h3>Use your school&apos;s address, not your home&apos;s</h3>
        <p>
          The Teachers Wishlist is public: anyone can read it, and anyone who buys from your Amazon
          list sees where it is shipped. Write your school&apos;s name and town below, and set your
          Amazon list&apos;s shipping address to your school, never your home. Gifts then arrive
          where your class uses them, and strangers never learn where you live.
        </p>
      </div>
      <FormAlert message={form.message} />
      <KitForm form={form} csrfToken={csrfToken} aria-describedby="wishlist-why">
        <Field {...form.bind("first_name")} label="First name" required maxLength={100} />
        <Field {...form.bind("last_name")} label="Last name" required maxLength={100} />
        <Field
          {...form.bind("school_location")}
          label="School and town"
          required
          maxLength={200}
          hint="As the home page shows it: “Lincoln Elementary, Austin, TX”. Not your home address."
        />
        <Field
          {...form.bind("amazon_wishlist")}
          label="Amazon wishlist URL"
          type="url"
          inputMode="url"
          required
          maxLength={500}
          placeholder="https://www.amazon.com/hz/wishlist/ls/…"
        />
        <div>
          <SubmitButton busy={form.busy}>Send for approval</SubmitButton>
        </div>
      </KitForm>
    </section>
  );
}

/** /user/wishlist/new: a verified educator's own Teachers Wishlist entry, approved by moderators. */
export default function NewWishlist() {
  const { verified_educator, entries, csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const waiting = entries.some((entry) => entry.status === "pending");
  return (
    <div className="container educators-page">
      <h1 className="page-title">Add your Teachers Wishlist</h1>
      {!verified_educator ? (
        <div className="card">
          <p className="alert alert-danger">
            Only verified educators can add a Teachers Wishlist entry.
          </p>
          <p>
            Ask to be verified with your school email address, or with a short note our moderators
            review. It takes a minute.
          </p>
          <p>
            <Link className="btn btn-primary" to="/user/verify-educator">
              Get verified as an educator
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p>
            Your entry shows in the Teachers Wishlist on the home page once a moderator has approved
            it.
          </p>
          {waiting ? (
            <>
              {/* The form posted without JavaScript: its success, where the form was. */}
              {posted?.ok && posted.message && (
                <FormAlert message={{ text: posted.message, tone: "success" }} />
              )}
              <p className="alert alert-success">
                Your wishlist is waiting for a moderator. You can send another once it is reviewed.
              </p>
            </>
          ) : (
            <WishlistForm csrfToken={csrfToken} />
          )}
        </>
      )}
      {entries.length > 0 && (
        <section className="card" aria-labelledby="own-entries-heading">
          <h2 id="own-entries-heading">What you sent</h2>
          <ul className="educators-list">
            {entries.map((entry) => (
              <li key={entry.id}>
                <strong>
                  {entry.first_name} {entry.last_name}
                </strong>
                , {entry.school_location} — {STATUS_WORDS[entry.status]}
                {entry.status === "rejected" && entry.review_reason && <>: {entry.review_reason}</>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
