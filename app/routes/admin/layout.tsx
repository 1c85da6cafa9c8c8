import { NavLink, Outlet, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { requireConsoleUser } from "../../lib/console.server.ts";
import "../../styles/console.css";
import type { Route } from "./+types/layout";

/** Every console page, in the order the console's menu shows them. */
const CONSOLE_PAGES: { to: string; label: string; adminOnly?: boolean }[] = [
  { to: "/admin", label: "Dashboard" },
  { to: "/admin/reports", label: "Reports" },
  { to: "/admin/posts", label: "Posts" },
  { to: "/admin/comments", label: "Comments" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/educators", label: "Educators" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/stores", label: "Stores" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/featured", label: "Featured" },
  { to: "/admin/wishlist", label: "Wishlist" },
  { to: "/admin/social", label: "Social links" },
  { to: "/admin/forums", label: "Forums" },
  { to: "/admin/pages", label: "Pages" },
  { to: "/admin/settings", label: "Settings", adminOnly: true },
  { to: "/admin/mail", label: "Mail", adminOnly: true },
  { to: "/admin/audit", label: "Audit log" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  // Every console page's forms post to their page with it (app/components/console/ConsoleKitForm.tsx).
  return { staff: { name: user.name, role: user.role }, csrfToken: ctx.csrfToken() };
}

export const meta: Route.MetaFunction = () => [
  { title: "Console" },
  { name: "robots", content: "noindex" },
];

/** The console's frame: its menu (a scrolling strip on phones, a side column on wide screens). */
export default function ConsoleLayout() {
  const { staff } = useLoaderData<typeof loader>();
  const pages = CONSOLE_PAGES.filter((page) => !page.adminOnly || staff.role === "admin");
  return (
    <div className="console container">
      <nav className="console-nav" aria-label="Console">
        <p className="console-nav-who">
          {staff.name} <span className="console-role">{staff.role}</span>
        </p>
        <ul>
          {pages.map((page) => (
            <li key={page.to}>
              <NavLink
                to={page.to}
                end={page.to === "/admin"}
                className={({ isActive }) => (isActive ? "active" : undefined)}
              >
                {page.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="console-main">
        <Outlet />
      </div>
    </div>
  );
}
