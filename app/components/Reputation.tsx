import type { EarnedBadge } from "../../core/people/reputation/member-reputation.ts";
import "../styles/reputation.css";

/**
 * A member's level beside their name (profiles, deal page and comment bylines): plain text, so
 * that it costs the pages no script (docs/decisions/0088-reputation.md).
 */
export function LevelTag({ level }: { level: string }) {
  return (
    <span className="level-tag">
      <span className="visually-hidden">Level: </span>
      {level}
    </span>
  );
}

/**
 * Earned badges, each with its rule, and when it was earned where `dateOf` is given (the top
 * contributors' page leaves the date formatting out: home's scripts would split around it).
 */
export function BadgeList({
  badges,
  compact = false,
  dateOf,
}: {
  badges: EarnedBadge[];
  compact?: boolean;
  dateOf?: (iso: string) => string;
}) {
  if (!badges.length) return null;
  return (
    <ul className={compact ? "badge-list badge-list-compact" : "badge-list"} aria-label="Badges">
      {badges.map((badge) => (
        <li key={badge.key} className="badge" title={compact ? badge.rule : undefined}>
          <strong>{badge.name}</strong>
          {compact ? (
            <span className="visually-hidden">: {badge.rule}</span>
          ) : (
            <span className="badge-rule">
              {badge.rule}
              {dateOf ? ` · earned ${dateOf(badge.earned_at)}` : ""}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
