import { redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { DownloadMyData } from "../components/DownloadMyData.tsx";
import { MailDeliveryBanner } from "../components/MailDeliveryBanner.tsx";
import { ProfileView } from "../components/ProfileView.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/my-account";
import { pageFromQuery } from "../../core/list-query.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const [profile, unreadNotifications, undeliverableAddress] = await Promise.all([
    services.profiles.dashboard(user, {
      user_id: user.id,
      page: pageFromQuery(new URL(request.url).searchParams.get("page")),
    }),
    services.notifications.unreadCount(user),
    services.profiles.undeliverableAddress(user),
  ]);
  return { profile, viewerId: user.id, unreadNotifications, undeliverableAddress };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "My Account", path: "/user/profile", noindex: true });

export default function MyAccount() {
  const { profile, viewerId, unreadNotifications, undeliverableAddress } =
    useLoaderData<typeof loader>();
  return (
    <ProfileView
      notice={undeliverableAddress && <MailDeliveryBanner address={undeliverableAddress} />}
      profile={profile}
      viewerId={viewerId}
      path="/user/profile"
      unreadNotifications={unreadNotifications}
    >
      <DownloadMyData />
    </ProfileView>
  );
}
