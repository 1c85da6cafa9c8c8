import { Link } from "react-router";
import type { SiteSettings } from "../../core/settings/service.ts";
import { SocialIcon } from "./SocialIcon.tsx";
import { SEARCH_ICON } from "./icons.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { BROWSE_LINKS } from "../lib/browse-links.ts";
import "../styles/site-links.css";
import { useMediaUrl } from "../lib/media-url.tsx";

/** The page on installing the site as an app (app/routes/install.tsx). */
const INSTALL_PATH = "/install";

/** A store badge: to the owner's store address, or to the Install page when there is none. */
function AppBadge({ href, image, alt }: { href: string; image: string; alt: string }) {
  const badge = <img src={image} alt={alt} width={150} height={45} loading="lazy" />;
  if (!href) return <Link to={INSTALL_PATH}>{badge}</Link>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {badge}
    </a>
  );
}

export function Footer({ settings, year }: { settings: SiteSettings; year: number }) {
  const mediaUrl = useMediaUrl();
  const footer = settings.footer[0];
  const social = settings.social;
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-apps">
          {/* A badge the owner gave no store address leads to installing the site as an app
              (record 0108); with no badge at all, a plain link does. */}
          {footer?.playStoreImage && (
            <AppBadge
              href={footer.playstoreUrl}
              image={mediaUrl(footer.playStoreImage)}
              alt="Get it on Google Play"
            />
          )}
          {footer?.appStoreImage && (
            <AppBadge
              href={footer.appStoreUrl}
              image={mediaUrl(footer.appStoreImage)}
              alt="Download on the App Store"
            />
          )}
          {!footer?.playStoreImage && !footer?.appStoreImage && (
            <Link to={INSTALL_PATH} className="footer-install">
              Install the app
            </Link>
          )}
        </div>
        <nav className="footer-links" aria-label="Browse">
          <ul>
            {BROWSE_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        {social.length > 0 && (
          <div className="footer-social">
            <span>Follow us on</span>
            <ul>
              {social.map((s) => (
                <li key={s.id}>
                  <a href={s.url} target="_blank" rel="noopener noreferrer" aria-label={s.name}>
                    <SocialIcon icon={s.icon} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        <ThemeToggle />
        <div className="footer-bottom">
          <p>{`© ${year} ${footer?.copyrightText ?? settings.websiteName}`}</p>
          <a href="/privacy-policy" target="_blank" rel="noopener">
            Privacy Policy
          </a>
          <Link to="/help">How it works</Link>
          <Link to="/search" className="footer-search" aria-label="Search deals">
            {SEARCH_ICON}
          </Link>
        </div>
      </div>
    </footer>
  );
}
