import type { IconType } from "react-icons";
import {
  FaFacebookF,
  FaInstagram,
  FaLinkedinIn,
  FaPinterestP,
  FaXTwitter,
  FaYoutube,
} from "react-icons/fa6";
import { FiLink } from "react-icons/fi";

/** Social links name their icon by class (the spec's social_image); this maps the class to a glyph. */
const ICONS: Record<string, IconType> = {
  "icon-facebook": FaFacebookF,
  "icon-twitter": FaXTwitter,
  "icon-x": FaXTwitter,
  "icon-instagram": FaInstagram,
  "icon-pinterest": FaPinterestP,
  "icon-youtube": FaYoutube,
  "icon-linkedin": FaLinkedinIn,
};

export function SocialIcon({ icon }: { icon: string }) {
  const Icon = ICONS[icon] ?? FiLink;
  return <Icon aria-hidden="true" focusable="false" />;
}
