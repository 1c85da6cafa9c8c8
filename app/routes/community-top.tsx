import { Link, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { pageFromQuery } from "../../core/list-query.ts";
import { Avatar } from "../components/Avatar.tsx";
import { Pager } from "../components/Pager.tsx";
import { BadgeList, LevelTag } from "../components/Reputation.tsx";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/community-top";

/**
 * This month's top contributors (record 0088): members by the points they earned this month (UTC),
 * with their level and badges. A public list, kept by the page cache until reputation changes.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const page = pageFromQuery(new URL(request.url).searchParams.get("page"));
  const top = await services.reputation.topContributors({ page });
  if (page > top.pagination.last_page) notFound();
  return top;
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: "Top Contributors",
    description: loaderData
      ? `The members whose deals and coupons helped most in ${monthName(loaderData.month)}.`
      : undefined,
    path: "/community/top",
  });

export default function TopContributors() {
  useKeptList();
  const { month, members, pagination } = useLoaderData<typeof loader>();
  return (
    <div className="container profile">
      <section className="card profile-section" aria-labelledby="top-title">
        <h1 id="top-title" className="page-title">
          Top Contributors · {monthName(month)}
        </h1>
        <p>
          Members ranked by the points they earned this month: the heat their deals reached, deals
          that went hot, and coupons others said work. Posts a moderator removed cost points.
        </p>
      </section>
      {members.length === 0 ? (
        <p className="card profile-section">No member has earned points this month yet.</p>
      ) : (
        <ol className="top-list" aria-label={`Top contributors of ${monthName(month)}`}>
          {members.map((member) => (
            <li key={member.user_id} className="card top-member">
              <span className="top-rank">
                <span className="visually-hidden">Rank </span>
                {member.rank}
              </span>
              <Avatar name={member.user_name} image={member.user_image} size={48} />
              <div className="top-name">
                <Link to={`/profile/${member.user_id}`}>
                  <strong>{member.user_name}</strong>
                </Link>{" "}
                <LevelTag level={member.level} />
                <BadgeList badges={member.badges} compact />
              </div>
              <p className="top-points">
                <strong>{member.month_points}</strong> points this month
                <br />
                <small>{member.points} in all</small>
              </p>
            </li>
          ))}
        </ol>
      )}
      <Pager
        page={pagination.current_page}
        lastPage={pagination.last_page}
        hrefFor={(page) => `/community/top?page=${page}`}
        label="Top contributors pages"
      />
    </div>
  );
}
