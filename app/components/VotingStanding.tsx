import { formatSuspensionEnd } from "../../core/auth/suspension.ts";
import type { VotingStatus } from "../../core/moderation/voting/presenter.ts";
import { formatDate } from "../lib/format.ts";

/**
 * My Account's Voting section (docs/decisions/0091-vote-integrity.md): the rules every vote is
 * held to, and the member's own warnings and block with their reasons, so nothing restricts a
 * member without telling them why.
 */
export function VotingStanding({
  voting,
}: {
  voting: VotingStatus & { rules: readonly string[] };
}) {
  return (
    <section id="voting" className="card profile-section" aria-labelledby="voting-heading">
      <h2 id="voting-heading">Voting</h2>
      {voting.blocked_until && (
        <p className="field-error" role="status">
          Your voting is blocked until {formatSuspensionEnd(new Date(voting.blocked_until))}:{" "}
          {voting.block_reason}
        </p>
      )}
      {voting.restrictions.length > 0 && (
        <ul aria-label="Moderators' warnings and blocks">
          {voting.restrictions.map((r) => (
            <li key={r.id}>
              {r.kind === "warning"
                ? `Warning, ${formatDate(r.created_at)}`
                : `Voting blocked ${formatDate(r.created_at)} until ${formatSuspensionEnd(new Date(r.ends_at ?? r.created_at))}${r.lifted_at ? ` (lifted ${formatDate(r.lifted_at)})` : ""}`}
              : {r.reason}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>The voting rules</summary>
        <ul>
          {voting.rules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      </details>
    </section>
  );
}
