import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ProfileView } from "../components/ProfileView.tsx";
import { orNull } from "../../core/not-found.ts";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageFormsAction } from "../lib/post-forms.server.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/profile";
import { pageFromQuery } from "../../core/list-query.ts";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!/^\d{1,15}$/.test(params.userId)) notFound();
  // An unknown or deleted member is the 404 page.
  const profile =
    (await orNull(
      services.profiles.publicProfile(user, {
        user_id: Number(params.userId),
        page: pageFromQuery(new URL(request.url).searchParams.get("page")),
      }),
    )) ?? notFound();
  // Only a member's page carries the token: a visitor's may be kept by the page cache.
  return { profile, viewerId: user?.id ?? null, csrfToken: user ? csrfToken() : null };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

/** The report form posted to the page (app/lib/post-forms.server.ts). */
export function action(args: Route.ActionArgs) {
  return pageFormsAction(args, ["report"]);
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return pageMeta(matches, { title: "Page Not Found", noindex: true });
  const user = loaderData.profile.user_data;
  return pageMeta(matches, {
    title: user.user_name,
    description:
      user.user_biography ||
      `${user.user_name}'s deals and coupons: ${user.deal_count} deals, ${user.coupon_count} coupons.`,
    path: `/profile/${user.user_id}`,
    image: user.user_image || undefined,
    type: "profile",
  });
};

export default function PublicProfile() {
  useKeptList();
  const { profile, viewerId, csrfToken } = useLoaderData<typeof loader>();
  return (
    <ProfileView
      profile={profile}
      viewerId={viewerId}
      csrfToken={csrfToken}
      path={`/profile/${profile.user_data.user_id}`}
    />
  );
}
