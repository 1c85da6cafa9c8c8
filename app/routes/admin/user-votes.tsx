import { Link, useLoaderData, useSearchParams } from "react-router";
import { requestContext } from "#app-context";
import { formatSuspensionEnd } from "../../../core/auth/suspension.ts";
import type { MemberVote, VotingStatus } from "../../../core/moderation/voting/presenter.ts";
import { MAX_BLOCK_DAYS, WARNING_COUNTS_DAYS } from "../../../core/moderation/voting/rules.ts";
import { MemberVotesQuery } from "../../../core/moderation/voting/schema.ts";
import { orNull } from "../../../core/not-found.ts";
import { COLD_REASON_LABELS } from "../../../core/posts/reactions/cold-reasons.ts";
import { RestrictionAction, dayIn } from "../../components/console/RestrictionAction.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleTable, type ConsoleColumn } from "../../components/console/ConsoleTable.tsx";
import { Pager, pageHref } from "../../components/Pager.tsx";
import { apiCall } from "../../lib/api.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { notFound } from "../../lib/errors.ts";
import { formatDate } from "../../lib/format.ts";
import type { Route } from "./+types/user-votes";

/** The console's member page (record 0091): their votes, warnings and voting blocks. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const viewer = requireConsoleUser(ctx, "moderator");
  const query = MemberVotesQuery.safeParse({
    user_id: params.userId,
    page: new URL(request.url).searchParams.get("page") ?? 1,
  });
  if (!query.success) notFound();
  const answer =
    (await orNull(ctx.services.votingIntegrity.memberVotes(viewer, query.data))) ?? notFound();
  return { ...answer, viewerId: viewer.id };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.member.name ?? "Member"} · Votes · Console` },
  { name: "robots", content: "noindex" },
];

function dateTime(iso: string): string {
  return `${formatDate(iso)}, ${iso.slice(11, 16)} UTC`;
}

/** Block voting: a reason and an end date, both required; the member is told both. */
function BlockAction({ userId, name }: { userId: number; name: string }) {
  return (
    <RestrictionAction
      label="Block voting"
      title={`Block ${name}'s voting?`}
      explanation="Their votes are refused until the end date. They are told the reason and the date."
      untilHint={`at most ${MAX_BLOCK_DAYS} days ahead`}
      untilRequired
      untilMin={dayIn(1)}
      untilMax={dayIn(MAX_BLOCK_DAYS)}
      send={(reason, until) =>
        apiCall("/admin/users/vote_block", { user_id: userId, reason, until })
      }
    />
  );
}

function Standing({
  voting,
  member,
  mayAct,
}: {
  voting: VotingStatus;
  member: { id: number; name: string };
  mayAct: boolean;
}) {
  return (
    <section aria-labelledby="voting-standing">
      <h2 id="voting-standing">Voting</h2>
      <p>
        {voting.blocked_until ? (
          <span className="console-badge danger">
            Voting blocked until {formatSuspensionEnd(new Date(voting.blocked_until))}
          </span>
        ) : (
          <span className="console-badge success">May vote</span>
        )}
        {voting.block_reason && <span className="console-note"> {voting.block_reason}</span>}
      </p>
      {mayAct && (
        <div className="console-row-actions">
          <ConsoleAction
            call="/admin/users/vote_warning"
            body={{ user_id: member.id }}
            label="Warn about votes"
            askReason
            confirm={`Warn ${member.name} about their votes? They are told the reason.`}
          />
          {voting.blocked_until ? (
            <ConsoleAction
              call="/admin/users/vote_unblock"
              body={{ user_id: member.id }}
              label="Lift voting block"
              confirm={`Lift the block on ${member.name}'s voting?`}
            />
          ) : voting.may_block ? (
            <BlockAction userId={member.id} name={member.name} />
          ) : (
            <p className="console-note">
              A block needs a warning first (one given in the last {WARNING_COUNTS_DAYS} days).
            </p>
          )}
        </div>
      )}
      {voting.restrictions.length > 0 && (
        <ul className="console-list" aria-label="Warnings and blocks">
          {voting.restrictions.map((r) => (
            <li key={r.id}>
              <strong>{r.kind === "warning" ? "Warning" : "Block"}</strong>,{" "}
              {dateTime(r.created_at)}
              {r.ends_at && ` until ${formatSuspensionEnd(new Date(r.ends_at))}`}
              {r.lifted_at && ` (lifted ${dateTime(r.lifted_at)})`}: {r.reason}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function ConsoleMemberVotes() {
  const { member, voting, votes, page, last_page, total, viewerId } =
    useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const columns: ConsoleColumn<MemberVote>[] = [
    {
      header: "Post",
      cell: (vote) => (
        <>
          <a href={vote.post.link}>{vote.post.title}</a>
          <div className="console-note">
            by{" "}
            {vote.post.poster_id ? (
              <Link to={`/admin/users/${vote.post.poster_id}`}>{vote.post.poster_name}</Link>
            ) : (
              vote.post.poster_name
            )}
          </div>
        </>
      ),
    },
    {
      header: "When",
      cell: (vote) => <span className="console-nowrap">{dateTime(vote.created_at)}</span>,
    },
    {
      header: "Vote",
      cell: (vote) =>
        vote.reaction === "like"
          ? "Hot"
          : `Cold${vote.reason ? ` (${COLD_REASON_LABELS[vote.reason]})` : ""}`,
    },
    {
      header: "Network",
      cell: (vote) =>
        vote.network ? <code>{vote.network}</code> : <span className="console-note">unknown</span>,
    },
  ];
  return (
    <>
      <p>
        <Link to="/admin/users">← Users</Link>
      </p>
      <h1>
        {member.name} <span className="console-note">#{member.id}</span>
      </h1>
      <p className="console-note">
        Joined {formatDate(member.joined)}
        {member.deleted && " · account deleted"}
      </p>
      <Standing
        voting={voting}
        member={member}
        mayAct={!member.deleted && member.id !== viewerId}
      />
      <h2>Votes</h2>
      <p className="console-note" aria-live="polite">
        {total === 1 ? "1 vote" : `${total} votes`}. The network is a label, the same for votes from
        one network, never the address.
      </p>
      <ConsoleTable
        caption={`${member.name}'s votes`}
        columns={columns}
        rows={votes}
        rowKey={(vote) => `${vote.post.unique_id}-${vote.post.post_type}`}
        empty="No votes."
      />
      <Pager
        page={page}
        lastPage={last_page}
        hrefFor={(n) => pageHref(params, n)}
        label="Votes pages"
      />
    </>
  );
}
