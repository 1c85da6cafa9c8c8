import { createHash } from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { isMediaUrl, MEDIA_URL_PREFIX } from "../media/media-path.ts";
import type { MediaStorage } from "../media/storage.ts";
import { APP_ICONS, type AppIconSpec } from "./manifest.ts";

/** The site's own icon, used when the owner has set no logo, or it cannot be read. */
export const FALLBACK_LOGO_FILE = fileURLToPath(
  new URL("../../public/favicon.svg", import.meta.url),
);

/**
 * The share of a maskable icon's side the logo may fill: the safe zone is the centred circle of
 * 80 % of the side (the W3C manifest's "maskable" purpose), and a square inside it has sides of
 * 80 % / √2 ≈ 56 %.
 */
export const MASKABLE_LOGO_SHARE = 0.56;
/** Apple's home screen rounds the corners a little; the logo keeps a margin from them. */
const APPLE_LOGO_SHARE = 0.8;

export interface AppIconSet {
  /** Changes whenever the icons' bytes change: the logo, the colours, or how icons are drawn. */
  version: string;
  /** Each icon's PNG bytes, by file name (APP_ICONS). */
  files: Map<string, Buffer>;
  /** Whether the icons come from the owner's logo (false: the site's own icon). */
  fromLogo: boolean;
}

/** Bumped when the drawing below changes, so the version (and browsers' copies) changes too. */
const DRAWING_VERSION = "1";

function transparent() {
  return { r: 0, g: 0, b: 0, alpha: 0 };
}

/** The logo as a PNG of at most `side` × `side`, whole and centred (vector logos drawn sharp). */
async function fitted(logo: Buffer, side: number): Promise<Buffer> {
  const meta = await sharp(logo, { limitInputPixels: 40_000_000 }).metadata();
  const longest = Math.max(meta.width ?? side, meta.height ?? side);
  // A vector logo is drawn at the size it is shown, not drawn small and enlarged.
  const density =
    meta.format === "svg"
      ? Math.min(2400, Math.max(72, Math.ceil((72 * side) / longest)))
      : undefined;
  return sharp(logo, { limitInputPixels: 40_000_000, ...(density ? { density } : {}) })
    .resize(side, side, { fit: "contain", background: transparent() })
    .png()
    .toBuffer();
}

/** The colours the icons are drawn on (the site's settings, SiteSettings `colors`). */
export interface AppIconColors {
  /** Behind the logo of the maskable icons, which fill the launcher's shape edge to edge. */
  theme: string;
  /** Behind the logo of Apple's home-screen icon. */
  background: string;
}

async function drawIcon(logo: Buffer, icon: AppIconSpec, colors: AppIconColors): Promise<Buffer> {
  const { size, purpose } = icon;
  if (purpose === "any") {
    return sharp(await fitted(logo, size))
      .png({ compressionLevel: 9 })
      .toBuffer();
  }
  const share = purpose === "maskable" ? MASKABLE_LOGO_SHARE : APPLE_LOGO_SHARE;
  const background = purpose === "maskable" ? colors.theme : colors.background;
  const inner = Math.round(size * share);
  return sharp({ create: { width: size, height: size, channels: 4, background } })
    .composite([{ input: await fitted(logo, inner), gravity: "centre" }])
    .flatten({ background })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The logo's bytes: the owner's logo from the media storage, else null. */
async function ownerLogo(media: MediaStorage, logoUrl: string): Promise<Buffer | null> {
  if (!isMediaUrl(logoUrl)) return null;
  return media.get(logoUrl.slice(MEDIA_URL_PREFIX.length));
}

/**
 * Every icon drawn from the site's logo (settings `website_logo`) on its colours. A logo that is missing or that
 * sharp cannot read gives the site's own icon instead, so the app always has its icons.
 */
export async function drawAppIcons(
  media: MediaStorage,
  logoUrl: string,
  colors: AppIconColors,
  onLogoError: (error: unknown) => void,
): Promise<AppIconSet> {
  const fallback = () => fs.promises.readFile(FALLBACK_LOGO_FILE);
  let logo = await ownerLogo(media, logoUrl).catch((error: unknown) => {
    onLogoError(error);
    return null;
  });
  let fromLogo = logo !== null;
  let files: Map<string, Buffer>;
  try {
    files = await drawAll(logo ?? (await fallback()), colors);
  } catch (error) {
    if (!fromLogo) throw error;
    onLogoError(error);
    logo = await fallback();
    fromLogo = false;
    files = await drawAll(logo, colors);
  }
  const hash = createHash("sha256").update(DRAWING_VERSION);
  for (const [file, bytes] of files) hash.update(file).update(bytes);
  return { version: hash.digest("hex").slice(0, 12), files, fromLogo };
}

async function drawAll(logo: Buffer, colors: AppIconColors): Promise<Map<string, Buffer>> {
  const drawn = await Promise.all(
    APP_ICONS.map(async (icon) => [icon.file, await drawIcon(logo, icon, colors)] as const),
  );
  return new Map(drawn);
}
