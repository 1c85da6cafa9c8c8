import { createContext, useContext, type ReactNode } from "react";
import { mediaUrl } from "../../core/media/variants.ts";

/**
 * MEDIA_BASE_URL as pages see it (the root loader's public config): where /media/ URLs are linked,
 * a CDN or a bucket's address, or null for /media/ on this site. The mapping itself is
 * core/media/variants.ts's mediaUrl; components ask useMediaUrl() instead of using a stored URL.
 */
const MediaBaseContext = createContext<string | null>(null);

export function MediaBaseProvider({
  baseUrl,
  children,
}: {
  baseUrl: string | null | undefined;
  children: ReactNode;
}) {
  return <MediaBaseContext.Provider value={baseUrl ?? null}>{children}</MediaBaseContext.Provider>;
}

/** MEDIA_BASE_URL, or null when pages link /media/ itself. */
export function useMediaBaseUrl(): string | null {
  return useContext(MediaBaseContext);
}

/** Maps a stored image URL to where this page links it (other sites' URLs are left alone). */
export function useMediaUrl(): (url: string) => string {
  const baseUrl = useContext(MediaBaseContext);
  return (url) => mediaUrl(url, baseUrl);
}
