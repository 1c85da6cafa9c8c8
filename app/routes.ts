import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** Every URL of the spec's screens and routes, in one table. */
export default [
  index("routes/home.tsx"),
  route("post/:uniqueId/:slug", "routes/post.tsx"),
  route("store", "routes/stores.tsx"),
  route("store/:slug", "routes/store.tsx"),
  route("category", "routes/categories.tsx"),
  route("category/:slug", "routes/category.tsx"),
  route("newdeals", "routes/new-deals.tsx"),
  route("search", "routes/search.tsx"),
  route("forum", "routes/forum.tsx"),
  route("educator", "routes/educator.tsx"),
  route("educator/:uniqueId/:slug", "routes/educator-post.tsx"),
  route("contact", "routes/contact.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  // Every other page the site owner writes in the console (/admin/pages).
  route("page/:slug", "routes/cms-page.tsx"),
  route("submitdeal", "routes/submit-deal.tsx"),
  route("user/profile", "routes/my-account.tsx"),
  route("user/profile-edit", "routes/profile-edit.tsx"),
  route("user/notifications", "routes/notifications.tsx"),
  // Notifications and mail (record 0044): mail choices, and every mail's one-click unsubscribe.
  route("user/settings/email", "routes/email-settings.tsx"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("user/alerts", "routes/alerts.tsx"),
  route("profile/:userId", "routes/profile.tsx"),
  // Verified educators (record 0041): asking, the mailed link, a teacher's own wishlist entry.
  route("user/verify-educator", "routes/verify-educator.tsx"),
  route("user/verify-educator/confirm/:code", "routes/verify-educator-confirm.tsx"),
  route("user/wishlist/new", "routes/wishlist-new.tsx"),
  // Saved deals and My Feed (record 0043).
  route("user/saved", "routes/saved.tsx"),
  route("user/feed", "routes/feed.tsx"),
  // Reputation (record 0088): the month's top contributors.
  route("community/top", "routes/community-top.tsx"),
  // How the site works: points, levels, privileges, vote weight (record 0089).
  route("help", "routes/help.tsx"),
  // Installing the site as an app, where the owner has no store app (record 0108).
  route("install", "routes/install.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("forgotpassword", "routes/forgot-password.tsx"),
  route("reset-password/:token", "routes/reset-password.tsx"),
  route("verify", "routes/verify.tsx"),
  route("confirm/:code", "routes/confirm.tsx"),
  // A member's new email address: the link mailed to it (docs/decisions/0083, amended).
  route("confirm-email-change", "routes/confirm-email-change.tsx"),
  route("delete-account", "routes/delete-account.tsx"),
  route("logout", "routes/logout.tsx"),
  route("payment", "routes/payment.tsx"),
  route("navbar", "routes/navbar.tsx"),
  // The owner's console: every page checks the role in its loader (app/lib/console.server.ts).
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      // People and settings.
      route("users", "routes/admin/users.tsx"),
      // A member's votes, warnings and voting blocks (record 0091).
      route("users/:userId", "routes/admin/user-votes.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      // Posts, comments and the audit log.
      route("posts", "routes/admin/posts.tsx"),
      route("posts/:uniqueId/edit", "routes/admin/post-edit.tsx"),
      route("comments", "routes/admin/comments.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      // The console's content: catalogue, curated lists, pages, contact messages.
      route("stores", "routes/admin/stores.tsx"),
      route("categories", "routes/admin/categories.tsx"),
      route("featured", "routes/admin/featured.tsx"),
      route("wishlist", "routes/admin/wishlist.tsx"),
      route("social", "routes/admin/social.tsx"),
      route("forums", "routes/admin/forums.tsx"),
      route("pages", "routes/admin/pages.tsx"),
      route("messages", "routes/admin/messages.tsx"),
      // Moderation (record 0031).
      route("reports", "routes/admin/reports.tsx"),
      // Verified educators (record 0041).
      route("educators", "routes/admin/educators.tsx"),
      // Mail delivery: the queue, daily counts, undeliverable addresses, docs/decisions/0083-mail-delivery.md.
      route("mail", "routes/admin/mail.tsx"),
    ]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
