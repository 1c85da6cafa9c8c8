import { useId, type MouseEvent } from "react";
import type { IconType } from "react-icons";
import { FaFacebookF, FaLinkedinIn, FaPinterestP, FaXTwitter } from "react-icons/fa6";

/** The spec's share popup: 600 × 400. */
const POPUP_FEATURES = "width=600,height=400,menubar=no,toolbar=no,resizable=yes,scrollbars=yes";

interface ShareTarget {
  name: string;
  icon: IconType;
  href: (page: { url: string; title: string; image: string }) => string;
}

const TARGETS: ShareTarget[] = [
  {
    name: "Facebook",
    icon: FaFacebookF,
    href: ({ url }) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`,
  },
  {
    name: "X (Twitter)",
    icon: FaXTwitter,
    href: ({ url, title }) =>
      `https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(title)}`,
  },
  {
    name: "Pinterest",
    icon: FaPinterestP,
    href: ({ url, title, image }) =>
      `https://www.pinterest.com/pin/create/button/?url=${encodeURIComponent(url)}` +
      `&media=${encodeURIComponent(image)}&description=${encodeURIComponent(title)}`,
  },
  {
    name: "LinkedIn",
    icon: FaLinkedinIn,
    href: ({ url }) =>
      `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`,
  },
];

/**
 * Share links for a page's canonical URL. Each opens the network's share dialog in a 600 × 400
 * popup; where popups are blocked (or without scripts) the link opens in a new tab instead.
 */
export function ShareButtons({ url, title, image }: { url: string; title: string; image: string }) {
  const labelId = useId();
  function openPopup(event: MouseEvent<HTMLAnchorElement>, name: string) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const popup = window.open(event.currentTarget.href, `share-${name}`, POPUP_FEATURES);
    if (!popup) return;
    popup.opener = null;
    event.preventDefault();
  }

  return (
    <div className="share-buttons">
      <span className="share-label" id={labelId}>
        Share
      </span>
      <ul aria-labelledby={labelId}>
        {TARGETS.map((target) => (
          <li key={target.name}>
            <a
              href={target.href({ url, title, image })}
              target="_blank"
              rel="noopener noreferrer"
              className={`share-link share-${target.name.split(" ")[0]!.toLowerCase()}`}
              aria-label={`Share on ${target.name}`}
              onClick={(event) => openPopup(event, target.name)}
            >
              <target.icon aria-hidden="true" focusable="false" />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
