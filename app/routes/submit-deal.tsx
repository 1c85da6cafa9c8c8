import { useState } from "react";
import { redirect, useActionData, useLoaderData, useSearchParams } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { CONFIRM_EMAIL_FIRST } from "../../core/auth/policy.ts";
import { SubmitDealForm } from "../components/SubmitDealForm.tsx";
import { SubmitDiscussionForm } from "../components/SubmitDiscussionForm.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { postedFor, type FormOutcome } from "../lib/api-form.ts";
import { pageMeta } from "../lib/meta.ts";
import { submitPostAction } from "../lib/submit-post.server.ts";
import "../styles/submit.css";
import type { Route } from "./+types/submit-deal";

type SubmitTab = "deal" | "discussion";

/** Submit Deals needs a signed-in user (the spec's roles); a visitor goes to /login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  return {
    userId: user.id,
    // A member's page: never page-cached (server/plugins/page-cache.ts).
    csrfToken: csrfToken(),
    emailVerified: user.email_verified,
    options: await services.submissions.options(),
  };
}

/**
 * The deal and discussion forms posted to the page (app/lib/submit-post.server.ts). The services
 * refuse a visitor (401) as the calls do; the loader's redirect does not run for a post.
 */
export function action(args: Route.ActionArgs) {
  return submitPostAction(args);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Submit Deals",
    description: "Share a deal, a coupon or a discussion with shoppers and teachers.",
    path: "/submitdeal",
    noindex: true,
  });

export default function SubmitDealPage() {
  const { userId, emailVerified, options, csrfToken } = useLoaderData<typeof loader>();
  const answer = useActionData<FormOutcome>();
  const [searchParams] = useSearchParams();
  // The forum's buttons may open the Discussion tab directly (?tab=discussion); Deal is the default.
  // A form posted without JavaScript comes back on its own tab.
  const [tab, setTab] = useState<SubmitTab>(
    answer?.values.intent === "discussion" || searchParams.get("tab") === "discussion"
      ? "discussion"
      : "deal",
  );

  return (
    <div className="container submit-page">
      <h1 className="page-title">Submit Deals</h1>
      {!emailVerified && (
        <p className="alert alert-danger" role="alert">
          {CONFIRM_EMAIL_FIRST}
        </p>
      )}
      <div className="card">
        <Tabs<SubmitTab>
          label="What to submit"
          selected={tab}
          onSelect={setTab}
          tabs={[
            {
              key: "deal",
              label: "Deal",
              panel: (
                <SubmitDealForm
                  userId={userId}
                  csrfToken={csrfToken}
                  posted={postedFor(answer, { intent: "deal" })}
                  dealCategories={options.forumCategoryDeal}
                  stores={options.stores}
                  categories={options.categories}
                />
              ),
            },
            {
              key: "discussion",
              label: "Discussion",
              panel: (
                <SubmitDiscussionForm
                  userId={userId}
                  csrfToken={csrfToken}
                  posted={postedFor(answer, { intent: "discussion" })}
                  categories={options.forumCategoryDiscussion}
                />
              ),
            },
          ]}
        />
      </div>
    </div>
  );
}
