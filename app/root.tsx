import { useEffect, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  type ShouldRevalidateFunctionArgs,
  isRouteErrorResponse,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { requestContext, type RequestContext } from "#app-context";
import { APPLE_TOUCH_ICON } from "../core/app-install/manifest.ts";
import { DEFAULT_SETTINGS } from "../core/settings/defaults.ts";
import type { SiteSettings } from "../core/settings/service.ts";
import type { Route } from "./+types/root";
import { DisclosureBanner } from "./components/DisclosureBanner.tsx";
import { Footer } from "./components/Footer.tsx";
import { Navbar } from "./components/Navbar.tsx";
import { NavigationProgress } from "./components/NavigationProgress.tsx";
import { NotFoundContent } from "./components/NotFoundContent.tsx";
import { ScrollManager } from "./components/ScrollManager.tsx";
import { UpgradeReloads } from "./components/UpgradeReloads.tsx";
import { chunkFailureMessage } from "./lib/chunks.tsx";
import { MediaBaseProvider } from "./lib/media-url.tsx";
import { themeOf } from "./lib/theme.ts";
import "./styles/app.css";
// The styles of the site frame and of what every page with deal cards shows (icons, cards, badges,
// breadcrumbs, listings, pager, report dialog …) travel in root's one style sheet, not in a sheet per
// shared chunk: each <link rel="stylesheet"> blocks the first paint (docs/decisions/0054). Their
// components import none; a route's own sheet (home, post, forum …) follows this one.
import "./styles/mask-icons.css";
import "./styles/social-icons.css";
import "./styles/breadcrumbs.css";
import "./styles/expiry.css";
import "./styles/listings.css";
import "./styles/saved.css";
import "./styles/links.css";
import "./styles/images.css";
import "./styles/temperature.css";
import "./styles/freshness.css";
import "./styles/deal-card.css";
import "./styles/price-history.css";
import "./styles/pager.css";
import "./styles/educators.css";
import "./styles/content.css";
import "./styles/report.css";
import "./styles/confirm-dialog.css";
import "slick-carousel/slick/slick.css";

/** The settings, footer and social links; when they cannot be read, the defaults (and a log line). */
async function siteSettings({ services, log }: RequestContext): Promise<SiteSettings> {
  try {
    return await services.settings.get();
  } catch (error) {
    log.error({ msg: "site settings could not be read; the page shows the defaults", err: error });
    return DEFAULT_SETTINGS;
  }
}

export async function loader({ context, request: httpRequest }: Route.LoaderArgs) {
  const request = context.get(requestContext);
  const { user, publicConfig, csrfToken } = request;
  return {
    settings: await siteSettings(request),
    user: user
      ? { id: user.id, name: user.name, image_url: user.image_url, role: user.role }
      : null,
    // For the Logout form; only signed-in pages, which are never cached for others, carry it.
    csrfToken: user ? csrfToken() : null,
    // The bell's count (record 0044): read here, with the page, not by a call of its own.
    unread: user ? await request.services.notifications.unreadCount(user) : 0,
    publicConfig,
    year: new Date().getFullYear(),
    // Dark mode (record 0035): the visitor's chosen theme, rendered on <html> (app/lib/theme.ts).
    theme: themeOf(httpRequest),
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/** Whether the page on screen is a signed-in member's: set once the root's data is shown. */
let memberOnScreen = false;

/**
 * The root's data (the member, the bell's count, the settings) is read again after every form, as
 * React Router does by default, and, for a signed-in member, on every move to another page: the
 * bell then shows what happened meanwhile without a reload. A visitor's moves leave it as it is.
 */
export function shouldRevalidate({
  defaultShouldRevalidate,
  formMethod,
  currentUrl,
  nextUrl,
}: ShouldRevalidateFunctionArgs) {
  if (defaultShouldRevalidate || formMethod) return defaultShouldRevalidate;
  return memberOnScreen && currentUrl.pathname !== nextUrl.pathname;
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // The installable app (record 0108): its manifest and the icon of Apple's home screen.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: APPLE_TOUCH_ICON },
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootLoaderData>("root");
  const settings = data?.settings ?? DEFAULT_SETTINGS;
  const { pathname } = useLocation();
  // The spec hides the navigation bar on /logout.
  const showNav = pathname !== "/logout";
  const signedIn = Boolean(data?.user);
  useEffect(() => {
    memberOnScreen = signedIn;
  }, [signedIn]);
  // The service worker (record 0108), registered once the page is idle, keeps the offline list of
  // saved deals for the member on screen only; on the saved deals page it reads them again.
  const memberId = data?.user?.id ?? null;
  useEffect(() => {
    // Its own chunk, loaded after hydration: nothing of it is in the scripts a page starts with.
    import("./lib/service-worker.ts").then(
      (worker) => worker.tellServiceWorkerMember(memberId, pathname === "/user/saved"),
      () => undefined, // a page kept open across a new build: the next page load registers it
    );
  }, [memberId, pathname]);
  return (
    <html lang="en" data-theme={data?.theme ?? undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={settings.colors.theme} />
        {/* The name under the icon on Apple's home screen (record 0108). */}
        <meta name="apple-mobile-web-app-title" content={settings.websiteName} />
        <Meta />
        {/* Stylesheets need no CSP nonce. Without this, <Links> takes the response's nonce from
            <ServerRouter>; browsers blank nonce attributes before hydration, so React (in
            development) would report a mismatch against the client's nonce-less links. */}
        <Links nonce="" />
      </head>
      <body>
        <MediaBaseProvider baseUrl={data?.publicConfig.mediaBaseUrl}>
          <NavigationProgress />
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          {showNav && (
            <header className="site-header">
              <Navbar
                settings={settings}
                user={data?.user ?? null}
                csrfToken={data?.csrfToken}
                unread={data?.unread ?? 0}
              />
              <DisclosureBanner />
            </header>
          )}
          <main id="main" className="site-main" tabIndex={-1}>
            {children}
          </main>
          <Footer settings={settings} year={data?.year ?? new Date().getFullYear()} />
          {/* The spec's scroll to the top on a route change; Back/Forward and filters keep place. */}
          <ScrollManager />
          {/* After a rolling upgrade: one reload, to the page asked for, keeping what was typed. */}
          <UpgradeReloads />
        </MediaBaseProvider>
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <div className="container page-message">
        <h1>Not allowed</h1>
        <p>Your account does not have access to this page.</p>
        <a className="btn btn-primary" href="/">
          Go To Home
        </a>
      </div>
    );
  }
  // The database is out of reach (server/database-faults.ts): the page answers 503 + Retry-After.
  if (isRouteErrorResponse(error) && error.status === 503) {
    return (
      <div className="container page-message">
        <h1>Temporarily unavailable</h1>
        <p>The site is temporarily unavailable. Please try again in a moment.</p>
        <a className="btn btn-primary" href="">
          Try again
        </a>
      </div>
    );
  }
  const chunkFailure = chunkFailureMessage(error);
  if (chunkFailure) {
    return (
      <div className="container page-message">
        <h1>{chunkFailure}</h1>
        <p>Part of this page could not be downloaded. Check your connection and reload the page.</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  // Never a stack trace: the details are in the server log.
  return (
    <div className="container page-message">
      <h1>Something went wrong</h1>
      <p>Sorry, this page could not be shown. Please try again in a moment.</p>
      <a className="btn btn-primary" href="/">
        Go To Home
      </a>
    </div>
  );
}
