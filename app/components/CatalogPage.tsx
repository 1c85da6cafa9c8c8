import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useLocation, useNavigation, useSearchParams, useSubmit } from "react-router";
import type { DirectoryPage } from "../../core/listings/directory.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { CatalogCard } from "./CatalogCard.tsx";
import { Pager, pageHref } from "./Pager.tsx";

export interface CatalogPageProps {
  title: string;
  /** Where a card leads: /store or /category, then the item's slug. */
  basePath: string;
  directory: DirectoryPage;
}

/** How long typing pauses before the list is searched. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * A search over every name of the list: a plain GET form (`?q=`) that works without JavaScript,
 * and with it searches as you type.
 */
function DirectorySearch({
  title,
  basePath,
  query,
}: {
  title: string;
  basePath: string;
  query: string;
}) {
  const inputId = useId();
  const submit = useSubmit();
  const [text, setText] = useState(query);
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const typed = useRef(false);

  // A search from elsewhere (a link, Back) shows its text, unless the visitor is typing.
  useEffect(() => {
    if (document.activeElement !== input.current) setText(query);
  }, [query]);
  const noun = title.toLowerCase();

  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      if (!form.current) return;
      submit(form.current, { replace: true, preventScrollReset: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, submit]);

  return (
    <Form ref={form} method="get" action={basePath} role="search" className="directory-search">
      <label htmlFor={inputId}>Find {noun}</label>
      <div className="search-form-row">
        <input
          ref={input}
          id={inputId}
          type="search"
          name="q"
          value={text}
          maxLength={200}
          placeholder={noun === "stores" ? "Amazon, Target…" : "Books, tech…"}
          autoComplete="off"
          onChange={(event) => {
            typed.current = true;
            setText(event.target.value);
          }}
        />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </div>
    </Form>
  );
}

/** The A–Z bar: each letter jumps to the page and tile of the first store it starts. */
function LetterBar({ directory, basePath }: { directory: DirectoryPage; basePath: string }) {
  if (directory.letters.length === 0) return null;
  return (
    <nav className="letter-bar" aria-label="Stores by first letter">
      <ul>
        {directory.letters.map(({ letter, page }) => (
          <li key={letter}>
            {page === null ? (
              <span className="letter-jump" aria-disabled="true">
                <span aria-hidden="true">{letter}</span>
                <span className="visually-hidden">No stores starting with {letter}</span>
              </span>
            ) : (
              <Link
                className="letter-jump"
                to={`${basePath}${page > 1 ? `?page=${page}` : ""}#letter-${letterSlug(letter)}`}
                aria-label={
                  letter === "#"
                    ? "Stores starting with a digit or symbol"
                    : `Stores starting with ${letter}`
                }
              >
                {letter}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

const letterSlug = (letter: string) => (letter === "#" ? "other" : letter);

/**
 * The /store and /category pages: the spec's paged grid of cards (2, 3 or 4 columns by width),
 * smaller tiles each with its count of live deals, a search over every name, and for stores an
 * A–Z jump bar.
 */
export function CatalogPage({ title, basePath, directory }: CatalogPageProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === basePath;
  const { items, total, currentPage: page, lastPage, query, anchors } = directory;
  const noun = title.toLowerCase();
  const one = basePath === "/store" ? "store" : "category";

  // A letter's jump scrolls to its tile once its page is shown (after any scroll to the top).
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash.startsWith("#letter-")) return;
    const frame = requestAnimationFrame(() =>
      document.getElementById(hash.slice(1))?.scrollIntoView({ block: "start" }),
    );
    return () => cancelAnimationFrame(frame);
  }, [hash, page]);

  return (
    <div className="container catalog">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: title }]} />
      <h1 className="page-title">{title}</h1>
      <div className="directory-tools">
        <DirectorySearch title={title} basePath={basePath} query={query} />
        <LetterBar directory={directory} basePath={basePath} />
      </div>
      <p className="listing-summary" aria-live="polite">
        {searching
          ? "Searching…"
          : query
            ? `${total} ${total === 1 ? one : noun} matching “${query}”`
            : `${total} ${noun}${lastPage > 1 ? ` · page ${page} of ${lastPage}` : ""}`}
      </p>
      {items.length === 0 ? (
        <div className="no-results">
          <p className="no-data">No Data Found</p>
          {query && (
            <p>
              <Link to={basePath}>See all {noun}</Link> or{" "}
              <Link to="/newdeals">the newest deals</Link>.
            </p>
          )}
        </div>
      ) : (
        <ul className={searching ? "catalog-grid stale" : "catalog-grid"}>
          {items.map((item) => (
            <li
              key={item.id}
              id={anchors[item.id] ? `letter-${letterSlug(anchors[item.id]!)}` : undefined}
            >
              <CatalogCard item={item} basePath={basePath} />
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={page}
        lastPage={lastPage}
        hrefFor={(n) => pageHref(searchParams, n)}
        label={`${title} pages`}
      />
    </div>
  );
}
