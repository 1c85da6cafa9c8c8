/** The networks the footer draws a glyph for (app/styles/social-icons.css); others get a link. */
const NETWORK_ICONS = new Set([
  "icon-facebook",
  "icon-twitter",
  "icon-x",
  "icon-instagram",
  "icon-pinterest",
  "icon-youtube",
  "icon-linkedin",
]);

/** Social links name their icon by class (the spec's social_image); this draws the class's glyph. */
export function SocialIcon({ icon }: { icon: string }) {
  const network = NETWORK_ICONS.has(icon) ? ` ${icon}` : "";
  return <span className={`mask-icon social-icon${network}`} aria-hidden="true" />;
}
