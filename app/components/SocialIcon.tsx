import { SOCIAL_ICON_VALUES } from "../../core/settings/social-icons.ts";

/**
 * Social links name their icon by class (the spec's social_image); this draws the class's glyph
 * (app/styles/social-icons.css), and a link for a class it does not know.
 */
export function SocialIcon({ icon }: { icon: string }) {
  const network = SOCIAL_ICON_VALUES.has(icon) ? ` ${icon}` : "";
  return <span className={`mask-icon social-icon${network}`} aria-hidden="true" />;
}
