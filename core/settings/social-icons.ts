/**
 * The icons a social link may name (social_links.social_image holds the icon's class, as the
 * spec's data does); app/components/SocialIcon.tsx draws each of them. No zod here: the footer
 * of every page reads this list, and the schema (social-links-schema.ts) only the console.
 */
export const SOCIAL_ICONS = [
  { value: "icon-facebook", label: "Facebook" },
  { value: "icon-twitter", label: "Twitter / X" },
  { value: "icon-x", label: "X" },
  { value: "icon-instagram", label: "Instagram" },
  { value: "icon-pinterest", label: "Pinterest" },
  { value: "icon-youtube", label: "YouTube" },
  { value: "icon-linkedin", label: "LinkedIn" },
  { value: "icon-link", label: "Other (a link icon)" },
] as const;

export const SOCIAL_ICON_VALUES: ReadonlySet<string> = new Set(
  SOCIAL_ICONS.map((icon) => icon.value),
);
