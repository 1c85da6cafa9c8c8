import type { Config } from "./env.ts";

/** The only configuration the browser may see: nothing secret belongs here. */
export interface PublicConfig {
  publicUrl: string;
  oauthProviders: { google: boolean; facebook: boolean };
  stripePublishableKey: string | null;
  /**
   * MEDIA_BASE_URL: where pages link /media/ files (app/lib/media-url.tsx). Absent when unset, so
   * pages carry nothing more than before.
   */
  mediaBaseUrl?: string;
}

export function publicConfig(config: Config): PublicConfig {
  return {
    publicUrl: config.publicUrl,
    oauthProviders: {
      google: Boolean(config.oauth.google),
      facebook: Boolean(config.oauth.facebook),
    },
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    ...(config.mediaBaseUrl ? { mediaBaseUrl: config.mediaBaseUrl } : {}),
  };
}
