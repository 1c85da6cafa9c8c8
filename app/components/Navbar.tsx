import { useRef, useState, type MouseEvent } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { withReturnPath } from "../../core/auth/return-path.ts";
import type { SiteSettings } from "../../core/settings/service.ts";
import { CsrfField } from "./Form.tsx";
import { BELL_ICON, CLOSE_ICON, MENU_ICON, SEARCH_ICON } from "./icons.tsx";
import { useMediaUrl } from "../lib/media-url.tsx";

interface NavbarProps {
  settings: SiteSettings;
  user: { id: number; name: string; role?: string } | null;
  /** The XSRF token for the Logout form (signed-in pages only). */
  csrfToken?: string | null;
  /** How many of the signed-in member's notifications are unread (the root loader's count). */
  unread?: number;
}

/** The bell: the member's unread notifications, linking to /user/notifications (record 0044). */
function NotificationBell({ unread, onClick }: { unread: number; onClick: () => void }) {
  const shown = unread > 99 ? "99+" : String(unread);
  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <NavLink
      to="/user/notifications"
      className={({ isActive }) => (isActive ? "navbar-bell active" : "navbar-bell")}
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {BELL_ICON}
      {unread > 0 && (
        <span className="navbar-bell-count" aria-hidden="true">
          {shown}
        </span>
      )}
    </NavLink>
  );
}

/**
 * Logout: a link to the spec's /logout page (a middle-click opens it), whose click posts the
 * Logout form to /logout, so no other site can sign anyone out with a link.
 */
function LogoutLink({ csrfToken, onClick }: { csrfToken?: string | null; onClick: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  function submit(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return; // a new tab or window opens /logout itself
    }
    event.preventDefault();
    onClick();
    form.current?.requestSubmit();
  }
  return (
    <>
      <a href="/logout" className="nav-link" onClick={submit}>
        Logout
      </a>
      <form ref={form} method="post" action="/logout" hidden>
        <CsrfField token={csrfToken} />
      </form>
    </>
  );
}

export function Navbar({ settings, user, csrfToken, unread = 0 }: NavbarProps) {
  const mediaUrl = useMediaUrl();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  // Login and Register come back to this page (record 0035); on their own pages they keep its next.
  const { pathname, search } = useLocation();
  const onAuthPage = pathname === "/login" || pathname === "/register";
  const here = onAuthPage ? (new URLSearchParams(search).get("next") ?? "/") : pathname + search;
  const links = [
    { to: "/", label: "Home", end: true as boolean },
    { to: "/store", label: "Stores" },
    { to: "/category", label: "Categories" },
    { to: "/submitdeal", label: "Submit Deals" },
    { to: settings.educatorLink, label: "Educators" },
    { to: "/contact", label: "Contact Us" },
  ];
  const account = user
    ? [
        { to: "/user/profile", label: "My Account" },
        // The member's own lists (record 0043).
        { to: "/user/feed", label: "My Feed" },
        { to: "/user/saved", label: "Saved" },
        { to: "/user/alerts", label: "Alerts" },
        // Staff reach the console from every page; the console checks the role itself.
        ...(user.role === "moderator" || user.role === "admin"
          ? [{ to: "/admin", label: "Console" }]
          : []),
      ]
    : [
        { to: withReturnPath("/login", here), label: "Login" },
        { to: withReturnPath("/register", here), label: "Register" },
      ];
  const siteName = settings.websiteName;

  return (
    <nav className="navbar" aria-label="Main">
      <div className="container navbar-inner">
        <Link to="/" className="navbar-brand" onClick={close}>
          {settings.logo ? (
            <img src={mediaUrl(settings.logo)} alt={siteName} width={180} height={40} />
          ) : (
            <span>{siteName}</span>
          )}
        </Link>
        <form className="navbar-search" method="get" action="/search" role="search">
          <label htmlFor="navbar-search-input" className="visually-hidden">
            Search deals
          </label>
          <input
            id="navbar-search-input"
            type="search"
            name="query"
            placeholder="Search deals, stores…"
          />
          <button type="submit" aria-label="Search">
            {SEARCH_ICON}
          </button>
        </form>
        <button
          type="button"
          className="navbar-toggle"
          aria-controls="navbar-menu"
          aria-expanded={open}
          aria-label={open ? "Close menu" : "Open menu"}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? CLOSE_ICON : MENU_ICON}
        </button>
        <ul id="navbar-menu" className={open ? "navbar-menu open" : "navbar-menu"}>
          {[...links, ...account].map((link) => (
            <li key={link.label}>
              <NavLink
                to={link.to}
                end={"end" in link && link.end === true}
                className={({ isActive }) => (isActive ? "nav-link active" : "nav-link")}
                onClick={close}
              >
                {link.label}
              </NavLink>
            </li>
          ))}
          {user && (
            <li>
              <LogoutLink csrfToken={csrfToken} onClick={close} />
            </li>
          )}
        </ul>
        {user && <NotificationBell unread={unread} onClick={close} />}
      </div>
    </nav>
  );
}
