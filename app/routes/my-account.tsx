import { redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ProfileView, pageNumber } from "../components/ProfileView.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/my-account";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect("/login");
  const profile = await services.profiles.dashboard(user, {
    user_id: user.id,
    page: pageNumber(request),
  });
  return { profile, viewerId: user.id };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "My Account", path: "/user/profile", noindex: true });

export default function MyAccount() {
  const { profile, viewerId } = useLoaderData<typeof loader>();
  return <ProfileView profile={profile} viewerId={viewerId} path="/user/profile" />;
}
