import { redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { DownloadMyData } from "../components/DownloadMyData.tsx";
import { MailDeliveryBanner } from "../components/MailDeliveryBanner.tsx";
import { ProfileView } from "../components/ProfileView.tsx";
import { ReputationLedger } from "../components/ReputationLedger.tsx";
import { VotingStanding } from "../components/VotingStanding.tsx";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/my-account";
import { pageFromQuery } from "../../core/list-query.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const query = new URL(request.url).searchParams;
  const [profile, unreadNotifications, undeliverableAddress, ledger, rules] = await Promise.all([
    services.profiles.dashboard(user, {
      user_id: user.id,
      page: pageFromQuery(query.get("page")),
    }),
    services.notifications.unreadCount(user),
    services.profiles.undeliverableAddress(user),
    // What earned or cost the member points, paged by ?points= (record 0088).
    services.reputation.ledger(user, { page: pageFromQuery(query.get("points")) }),
    services.reputation.rules(),
  ]);
  // Warnings, a voting block and the rules behind them (record 0091).
  const voting = await services.votingIntegrity.mine(user);
  return {
    profile,
    viewerId: user.id,
    unreadNotifications,
    undeliverableAddress,
    ledger,
    rules,
    voting,
  };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "My Account", path: "/user/profile", noindex: true });

export default function MyAccount() {
  useKeptList();
  const { profile, viewerId, unreadNotifications, undeliverableAddress, ledger, rules, voting } =
    useLoaderData<typeof loader>();
  return (
    <ProfileView
      notice={undeliverableAddress && <MailDeliveryBanner address={undeliverableAddress} />}
      profile={profile}
      viewerId={viewerId}
      path="/user/profile"
      unreadNotifications={unreadNotifications}
    >
      <ReputationLedger ledger={ledger} rules={rules} />
      <VotingStanding voting={voting} />
      <DownloadMyData />
    </ProfileView>
  );
}
