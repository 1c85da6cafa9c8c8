import { Link } from "react-router";
import { BROWSE_LINKS } from "../lib/browse-links.ts";

/**
 * Every 404 of the site, in its layout: an unknown path (the spec's 'Page Not Found' page with its
 * Go To Home link), and an unknown store, category, post, profile or a page past the last one (the
 * spec's 'No Data Found' notice). Both say so and offer a way on: home, the lists, a search.
 */
export function NotFoundContent() {
  return (
    <div className="container page-message not-found">
      <h1>Page Not Found</h1>
      <p className="no-data">No Data Found</p>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link className="btn btn-primary" to="/">
        Go To Home
      </Link>
      <nav className="not-found-links" aria-label="Keep browsing">
        <ul>
          {BROWSE_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A plain form, like the top bar's search: the results page loads afresh. */}
      <form className="not-found-search form-field" role="search" method="get" action="/search">
        <label htmlFor="not-found-query">Search all deals</label>
        <div className="not-found-search-row">
          <input id="not-found-query" type="search" name="query" required />
          <button type="submit" className="btn btn-outline">
            Find deals
          </button>
        </div>
      </form>
    </div>
  );
}
