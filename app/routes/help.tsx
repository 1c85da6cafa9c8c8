import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { helpPage } from "../../core/help/help-page.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/help";

/**
 * How the site works (docs/decisions/0089-newcomer-links.md): points, levels, badges, the
 * privileges of each level, vote weight and cold-vote reasons, each written from the module or
 * setting that applies it, so that the page says what the site does. Server-rendered text, no
 * client state: the route adds little to the scripts every page loads.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const [rules, moderation] = await Promise.all([
    services.reputation.rules(),
    services.settings.moderation(),
  ]);
  return helpPage({ points: rules.points, thresholds: rules.thresholds, ...moderation });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "How Chalkboard Deals works",
    description:
      "Reputation points, levels, badges, what each level may do, vote weight and cold-vote reasons.",
    path: "/help",
  });

export default function Help() {
  const page = useLoaderData<typeof loader>();
  return (
    <div className="container content-page">
      <article className="card rich-text">
        <h1 className="page-title">How Chalkboard Deals works</h1>
        {page.sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
            <h2 id={`${section.id}-title`}>{section.title}</h2>
            {section.intro && <p>{section.intro}</p>}
            {section.items.length > 0 && (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            )}
            {section.table && (
              <table>
                <caption>{section.table.caption}</caption>
                <thead>
                  <tr>
                    {section.table.head.map((cell) => (
                      <th key={cell} scope="col">
                        {cell}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {section.table.rows.map((row) => (
                    <tr key={row[0]}>
                      <th scope="row">{row[0]}</th>
                      {row.slice(1).map((cell, index) => (
                        <td key={index}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ))}
      </article>
    </div>
  );
}
