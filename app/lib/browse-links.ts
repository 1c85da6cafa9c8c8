/** The lists every visitor can browse, offered beside the spec's navigation bar (footer, 404s). */
export const BROWSE_LINKS = [
  { to: "/newdeals", label: "New Deals" },
  { to: "/forum", label: "Forum" },
  { to: "/store", label: "Stores" },
  { to: "/category", label: "Categories" },
  { to: "/community/top", label: "Top Contributors" },
] as const;
