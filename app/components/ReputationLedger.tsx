import { Link } from "react-router";
import type { ReputationService } from "../../core/people/reputation/service.ts";
import { formatDate } from "../lib/format.ts";
import { Pager } from "./Pager.tsx";

type Ledger = Awaited<ReturnType<ReputationService["ledger"]>>;
type Rules = Awaited<ReturnType<ReputationService["rules"]>>;

/**
 * My Account's reputation details (record 0088): every badge's rule with the member's own number
 * against it, the rules of points and levels, and what earned or cost them points, newest first,
 * paged by `?points=`. Part of My Account rather than a page of its own, so that the site's route
 * table, which every page loads, does not grow (docs/decisions/0051-javascript-budget.md).
 */
export function ReputationLedger({
  ledger: { badge_standings, ledger, pagination },
  rules: { points, thresholds },
}: {
  ledger: Ledger;
  /** From the server: the rules module stays out of the browser's scripts. */
  rules: Rules;
}) {
  return (
    <>
      <section className="card profile-section" aria-labelledby="badges-title">
        <h2 id="badges-title">Badges</h2>
        <ul className="rules-list">
          {badge_standings.map((badge) => (
            <li key={badge.key}>
              {badge.standing}
              {badge.earned ? " (earned)" : ""}
            </li>
          ))}
        </ul>
      </section>

      <section className="card profile-section" aria-labelledby="rules-title">
        <h2 id="rules-title">How points are earned and lost</h2>
        <p>
          Points come from how good your posts are, not how many, and are counted again every 15
          minutes. <Link to="/community/top">This month&apos;s top contributors</Link>
        </p>
        <ul className="rules-list">
          {points.map((text) => (
            <li key={text}>{text}.</li>
          ))}
        </ul>
        <p>
          Levels: Newcomer below {thresholds.member} points, Member from {thresholds.member},
          Regular from {thresholds.regular}, Trusted from {thresholds.trusted}.
        </p>
      </section>

      <section
        id="reputation-ledger"
        className="card profile-section"
        aria-labelledby="ledger-title"
      >
        <h2 id="ledger-title">What earned or cost you points</h2>
        {ledger.length === 0 ? (
          <p>
            Nothing yet: a deal that members vote hot, or a coupon they say works, earns points.
          </p>
        ) : (
          <table className="reputation-table">
            <caption className="visually-hidden">
              What earned or cost you points, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Post</th>
                <th scope="col" className="points">
                  Points
                </th>
              </tr>
            </thead>
            <tbody>
              {ledger.map((line, index) => (
                <tr key={`${line.occurred_at}-${index}`}>
                  <td>{formatDate(line.occurred_at)}</td>
                  <td>
                    {line.detail}
                    <br />
                    <small>{line.rule}</small>
                  </td>
                  <td>
                    {line.post ? (
                      <Link to={line.post.link}>{line.post.title}</Link>
                    ) : (
                      "No longer public"
                    )}
                  </td>
                  <td className={line.points < 0 ? "points points-lost" : "points"}>
                    {line.points > 0 ? `+${line.points}` : line.points}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          page={pagination.current_page}
          lastPage={pagination.last_page}
          hrefFor={(page) => `/user/profile?points=${page}#reputation-ledger`}
          label="Reputation pages"
        />
      </section>
    </>
  );
}
