import { Link } from "react-router";
import type { SiteSettings } from "../../core/settings/service.ts";
import { SocialIcon } from "./SocialIcon.tsx";
import { SEARCH_ICON } from "./icons.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { BROWSE_LINKS } from "../lib/browse-links.ts";
import "../styles/site-links.css";
import { useMediaUrl } from "../lib/media-url.tsx";

export function Footer({ settings, year }: { settings: SiteSettings; year: number }) {
  const mediaUrl = useMediaUrl();
  const footer = settings.footer[0];
  const social = settings.social;
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-apps">
          {footer?.playstoreUrl && footer.playStoreImage && (
            <a href={footer.playstoreUrl} target="_blank" rel="noopener noreferrer">
              <img
                src={mediaUrl(footer.playStoreImage)}
                alt="Get it on Google Play"
                width={150}
                height={45}
                loading="lazy"
              />
            </a>
          )}
          {footer?.appStoreUrl && footer.appStoreImage && (
            <a href={footer.appStoreUrl} target="_blank" rel="noopener noreferrer">
              <img
                src={mediaUrl(footer.appStoreImage)}
                alt="Download on the App Store"
                width={150}
                height={45}
                loading="lazy"
              />
            </a>
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
