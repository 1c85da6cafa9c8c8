import { siteImage } from "../../core/media/media-path.ts";
import { useMediaUrl } from "../lib/media-url.tsx";

/** A member's picture, or their initial on a coloured disc when they have none. */
export function Avatar({ name, image, size = 40 }: { name: string; image: string; size?: number }) {
  const mediaUrl = useMediaUrl();
  // Only the site's media: an outside address would let its owner log each viewer (record 0074).
  if (siteImage(image)) {
    return (
      <img
        className="avatar"
        src={mediaUrl(image)}
        alt=""
        width={size}
        height={size}
        loading="lazy"
      />
    );
  }
  const initial = name.trim().charAt(0).toUpperCase() || "?";
  return (
    <span
      className="avatar avatar-initial"
      style={{ width: size, height: size }}
      aria-hidden="true"
    >
      {initial}
    </span>
  );
}
