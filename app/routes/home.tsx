import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { DealGrid } from "../components/DealCard.tsx";
import { pageMeta, rootLoaderData } from "../lib/meta.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return services.deals.home();
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: rootLoaderData(matches)?.settings.websiteName ?? "Chalkboard Deals", path: "/" });

export default function Home() {
  const { wishlist, trending, recent } = useLoaderData<typeof loader>();
  return (
    <div className="container home">
      <section aria-labelledby="wishlist-heading" className="home-section">
        <h2 id="wishlist-heading">Teachers Wishlist</h2>
        {wishlist.length === 0 ? (
          <p className="no-data">No Data Found</p>
        ) : (
          <ul className="wishlist-strip">
            {wishlist.map((w) => (
              <li key={w.id}>
                <a href={w.amazon_wishlist} target="_blank" rel="noopener noreferrer">
                  <strong>
                    {w.first_name} {w.last_name}
                  </strong>
                  <span>{w.school_location}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="trending-heading" className="home-section">
        <h2 id="trending-heading">Trending Deals</h2>
        <DealGrid deals={trending} />
      </section>
      <section aria-labelledby="recent-heading" className="home-section">
        <h2 id="recent-heading">Recent Deals</h2>
        <DealGrid deals={recent.deals} />
      </section>
    </div>
  );
}
