import { Link } from "react-router";
import type { EarnedBadge } from "../../core/people/reputation/member-reputation.ts";
import { formatDate } from "../lib/format.ts";
import { BadgeList, LevelTag } from "./Reputation.tsx";

/** A profile's Reputation section: level, points and badges; the owner's links to the ledger. */
export function ReputationSummary({
  reputation,
  isOwn,
}: {
  reputation: { points: number; level: string; badges: EarnedBadge[] };
  isOwn: boolean;
}) {
  return (
    <section className="card profile-section reputation" aria-labelledby="reputation-heading">
      <h2 id="reputation-heading">Reputation</h2>
      <p className="reputation-standing">
        <LevelTag level={reputation.level} /> <strong>{reputation.points}</strong> points
      </p>
      {reputation.badges.length ? (
        <BadgeList badges={reputation.badges} dateOf={formatDate} />
      ) : (
        <p className="reputation-empty">No badges yet.</p>
      )}
      <p>
        {isOwn ? (
          <a href="#reputation-ledger">What earned your points, and the badges&apos; rules</a>
        ) : (
          <Link to="/community/top">This month's top contributors</Link>
        )}
      </p>
    </section>
  );
}
