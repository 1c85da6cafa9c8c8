import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { MediaStorage } from "../../core/media/storage.ts";
import { sizedName } from "../../core/media/variants.ts";

/**
 * Demo images drawn as SVG and encoded by sharp, so that a first start needs no network. Files go
 * to demo/ of the media storage (DATA_DIR/media or the bucket) and are served at
 * /media/demo/<file>; an existing file is left as it is (its name determines its content).
 */

export const DEMO_MEDIA_URL = "/media/demo";

export interface ImageJob {
  /**
   * File name inside demo/ of the media storage, ending in .png or .webp. A name with the image's size
   * (`<stem>.<W>x<H>.webp`, core/media/variants.ts) has responsive variants, made when first
   * asked for (core/media/variant-maker.ts): drawing them all here would make a first start
   * minutes longer.
   */
  file: string;
  svg: () => string;
}

export function demoImageUrl(file: string): string {
  return `${DEMO_MEDIA_URL}/${file}`;
}

const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Mixes a #rrggbb colour with white (amount > 0) or black (amount < 0). */
export function shade(color: string, amount: number): string {
  const n = parseInt(color.slice(1), 16);
  const target = amount < 0 ? 0 : 255;
  const a = Math.abs(amount);
  const mix = (c: number) => Math.round(c + (target - c) * a);
  const r = mix((n >> 16) & 255);
  const g = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** Dark text on light backgrounds, white text on dark ones. */
function textColorOn(color: string): string {
  const n = parseInt(color.slice(1), 16);
  const lum = (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return lum > 0.68 ? "#1f2933" : "#ffffff";
}

function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The largest of the font sizes at which the text fits the width in at most maxLines lines
 * (estimating a bold sans-serif glyph at 0.62 em); at the smallest size, extra text is cut.
 */
function fitText(
  text: string,
  width: number,
  maxLines: number,
  sizes: readonly number[],
): { size: number; lines: string[] } {
  for (const size of sizes) {
    const maxChars = Math.floor(width / (size * 0.62));
    const lines = wrap(text, maxChars);
    if (lines.length <= maxLines && lines.every((l) => l.length <= maxChars)) {
      return { size, lines };
    }
  }
  const size = sizes[sizes.length - 1]!;
  const maxChars = Math.floor(width / (size * 0.62));
  const lines = wrap(text, maxChars).slice(0, maxLines);
  const last = lines[lines.length - 1] ?? "";
  lines[lines.length - 1] =
    last.length > maxChars - 1 ? `${last.slice(0, maxChars - 1)}…` : `${last}…`;
  return { size, lines };
}

function textLines(
  lines: readonly string[],
  options: { x: number; y: number; size: number; color: string; anchor?: string; weight?: string },
): string {
  const lineHeight = Math.round(options.size * 1.2);
  return lines
    .map(
      (line, i) =>
        `<text x="${options.x}" y="${options.y + i * lineHeight}" font-family="${FONT}" font-size="${options.size}" font-weight="${options.weight ?? "bold"}" fill="${options.color}" text-anchor="${options.anchor ?? "start"}">${escapeXml(line)}</text>`,
    )
    .join("");
}

function svgDocument(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

function gradient(id: string, color: string): string {
  return `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shade(color, 0.12)}"/><stop offset="1" stop-color="${shade(color, -0.22)}"/></linearGradient></defs>`;
}

export const CHALKBOARD_GREEN = "#2F5D50";

export function logoSvg(name: string): string {
  return svgDocument(
    360,
    80,
    `<rect x="0" y="0" width="360" height="80" rx="10" fill="#8B5A2B"/>` +
      `<rect x="5" y="5" width="350" height="70" rx="6" fill="${CHALKBOARD_GREEN}"/>` +
      `<g transform="translate(22 18)"><path d="M0 6 L20 6 L34 22 L20 38 L0 38 Z" fill="#F7D154"/>` +
      `<circle cx="8" cy="22" r="4" fill="${CHALKBOARD_GREEN}"/></g>` +
      `<text x="68" y="50" font-family="${FONT}" font-size="27" font-weight="bold" fill="#F4F1E8">${escapeXml(name)}</text>` +
      `<path d="M68 60 Q160 66 250 58" stroke="#F4F1E8" stroke-opacity="0.55" stroke-width="2" fill="none"/>`,
  );
}

export function storeBadgeSvg(kind: "google-play" | "app-store"): string {
  const [small, big] =
    kind === "google-play" ? ["GET IT ON", "Google Play"] : ["Download on the", "App Store"];
  const icon =
    kind === "google-play"
      ? `<path d="M14 12 L14 42 L40 27 Z" fill="#34A853"/><path d="M14 12 L29 27 L14 42 Z" fill="#4285F4"/><path d="M29 27 L40 27 L14 42 Z" fill="#EA4335"/><path d="M14 12 L40 27 L29 27 Z" fill="#FBBC04"/>`
      : `<circle cx="27" cy="28" r="13" fill="#ffffff"/><circle cx="33" cy="16" r="4" fill="#ffffff"/><circle cx="36" cy="24" r="5" fill="#000000"/>`;
  return svgDocument(
    180,
    54,
    `<rect x="0.5" y="0.5" width="179" height="53" rx="9" fill="#000000" stroke="#A6A6A6"/>` +
      icon +
      `<text x="52" y="21" font-family="${FONT}" font-size="10" fill="#ffffff">${small}</text>` +
      `<text x="52" y="41" font-family="${FONT}" font-size="17" font-weight="bold" fill="#ffffff">${big}</text>`,
  );
}

/** A square tile: a store or category name on its colour. */
export function tileSvg(title: string, color: string, caption: string): string {
  const fg = textColorOn(color);
  const { size, lines } = fitText(title, 250, 3, [52, 44, 38, 32, 28]);
  const lineHeight = Math.round(size * 1.2);
  const top = 150 - ((lines.length - 1) * lineHeight) / 2 + size * 0.35;
  return svgDocument(
    300,
    300,
    gradient("bg", color) +
      `<rect width="300" height="300" fill="url(#bg)"/>` +
      `<circle cx="262" cy="40" r="90" fill="#ffffff" fill-opacity="0.08"/>` +
      `<circle cx="30" cy="280" r="70" fill="#000000" fill-opacity="0.08"/>` +
      textLines(lines, { x: 150, y: Math.round(top), size, color: fg, anchor: "middle" }) +
      `<text x="150" y="270" font-family="${FONT}" font-size="16" fill="${fg}" fill-opacity="0.8" text-anchor="middle">${escapeXml(caption)}</text>`,
  );
}

export interface DealImageSpec {
  headline: string;
  color: string;
  kind: "deal" | "coupon";
  price?: string;
  listPrice?: string;
  discount?: number | null;
  couponCode?: string;
}

/** Deal and discussion pictures: 800 × 600, named with their size so they get variants. */
const POST_IMAGE = { width: 800, height: 600 } as const;

/** The file name of a deal's or discussion's picture: `<stem>.800x600.webp`. */
export function postImageFile(stem: string): string {
  return sizedName(stem, POST_IMAGE.width, POST_IMAGE.height, "webp");
}

/**
 * The file name of a deal's picture: `deal-<12 hex digits>.800x600.webp`, the digits a hash of
 * what names the deal (`key`: its title and store). A card names its picture seven times (the
 * image, its WebP and AVIF variants), so a name as short as an upload's (core/media/images.ts)
 * rather than the deal's slug keeps every listing page's HTML lighter (decision 0050).
 */
export function dealImageFile(key: string): string {
  return postImageFile(`deal-${createHash("sha256").update(key).digest("hex").slice(0, 12)}`);
}

export function dealSvg(spec: DealImageSpec): string {
  const fg = textColorOn(spec.color);
  // Yellow prices and badge on dark backgrounds; on light ones, text-coloured prices, white badge.
  const dark = fg === "#ffffff";
  const accent = dark ? "#F7D154" : fg;
  const { size, lines } = fitText(spec.headline, 680, 3, [56, 50, 44, 38, 34]);
  let body =
    gradient("bg", spec.color) +
    `<rect width="800" height="600" fill="url(#bg)"/>` +
    `<circle cx="720" cy="80" r="220" fill="#ffffff" fill-opacity="0.07"/>` +
    `<circle cx="60" cy="600" r="180" fill="#000000" fill-opacity="0.08"/>` +
    textLines(lines, { x: 60, y: 215, size, color: fg });
  if (spec.discount) {
    body +=
      `<circle cx="704" cy="96" r="58" fill="${dark ? "#F7D154" : "#ffffff"}"/>` +
      `<text x="704" y="108" font-family="${FONT}" font-size="32" font-weight="bold" fill="#1f2933" text-anchor="middle">-${spec.discount}%</text>`;
  }
  if (spec.price) {
    body += `<text x="60" y="520" font-family="${FONT}" font-size="84" font-weight="bold" fill="${accent}">${escapeXml(spec.price)}</text>`;
    if (spec.listPrice) {
      // Bold digits are about 0.7 em wide.
      const x = 60 + Math.round(spec.price.length * 84 * 0.7) + 24;
      const w = Math.round(spec.listPrice.length * 34 * 0.6);
      body +=
        `<text x="${x}" y="515" font-family="${FONT}" font-size="34" fill="${fg}" fill-opacity="0.8">${escapeXml(spec.listPrice)}</text>` +
        `<line x1="${x - 4}" y1="503" x2="${x + w + 4}" y2="503" stroke="${fg}" stroke-opacity="0.8" stroke-width="3"/>`;
    }
  }
  if (spec.kind === "coupon" && spec.couponCode) {
    const y = spec.price ? 380 : 440;
    const w = Math.max(260, 120 + spec.couponCode.length * 26);
    body +=
      `<rect x="60" y="${y}" width="${w}" height="64" rx="8" fill="#ffffff" fill-opacity="0.12" stroke="${fg}" stroke-width="3" stroke-dasharray="12 8"/>` +
      `<text x="80" y="${y + 42}" font-family="${FONT}" font-size="30" font-weight="bold" fill="${fg}">CODE: ${escapeXml(spec.couponCode)}</text>`;
  }
  return svgDocument(POST_IMAGE.width, POST_IMAGE.height, body);
}

export function discussionSvg(category: string, color: string): string {
  const fg = textColorOn(color);
  return svgDocument(
    POST_IMAGE.width,
    POST_IMAGE.height,
    gradient("bg", color) +
      `<rect width="800" height="600" fill="url(#bg)"/>` +
      `<rect x="40" y="40" width="720" height="520" rx="16" fill="none" stroke="${fg}" stroke-opacity="0.35" stroke-width="4"/>` +
      `<text x="400" y="250" font-family="${FONT}" font-size="32" fill="${fg}" fill-opacity="0.85" text-anchor="middle">EDUCATORS FORUM</text>` +
      `<text x="400" y="340" font-family="${FONT}" font-size="64" font-weight="bold" fill="${fg}" text-anchor="middle">${escapeXml(category)}</text>` +
      `<path d="M260 390 Q400 404 540 386" stroke="${fg}" stroke-opacity="0.6" stroke-width="4" fill="none"/>`,
  );
}

export function avatarSvg(name: string, color: string): string {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .slice(0, 2)
    .join("");
  return svgDocument(
    128,
    128,
    `<rect width="128" height="128" fill="${color}"/>` +
      `<text x="64" y="80" font-family="${FONT}" font-size="48" font-weight="bold" fill="${textColorOn(color)}" text-anchor="middle">${escapeXml(initials)}</text>`,
  );
}

/** What an image's bytes depend on besides its SVG: the encoder and its settings. */
const ENCODER = `sharp ${sharp.versions.sharp} vips ${sharp.versions.vips}; png level 9; webp q82 e2`;

async function encode(job: ImageJob, svg: string): Promise<Buffer> {
  const image = sharp(Buffer.from(svg));
  return job.file.endsWith(".png")
    ? image.png({ compressionLevel: 9 }).toBuffer()
    : image.webp({ quality: 82, effort: 2 }).toBuffer();
}

/**
 * The image's bytes from `cacheDir` when it was drawn before, else drawn and kept there. Files are
 * named by a hash of the SVG and the encoder, so a changed drawing is drawn again, and a file is
 * written whole under a temporary name first: test processes share the folder.
 */
async function cachedEncode(job: ImageJob, cacheDir: string): Promise<Buffer> {
  const svg = job.svg();
  const key = createHash("sha256").update(ENCODER).update("\0").update(svg).digest("hex");
  const file = path.join(cacheDir, `${key}${path.extname(job.file)}`);
  try {
    return await fs.readFile(file);
  } catch {
    const data = await encode(job, svg);
    await fs.mkdir(cacheDir, { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await fs.writeFile(temporary, data);
    await fs.rename(temporary, file);
    return data;
  }
}

async function renderOne(media: MediaStorage, job: ImageJob, cacheDir?: string): Promise<boolean> {
  const relative = `demo/${job.file}`;
  if (await media.exists(relative)) return false;
  const data = cacheDir ? await cachedEncode(job, cacheDir) : await encode(job, job.svg());
  // The storage never keeps half a file that a later run would keep (core/media/storage.ts).
  await media.put(relative, data, job.file.endsWith(".png") ? "image/png" : "image/webp");
  return true;
}

export interface RenderOptions {
  /** How many images are drawn at once (sharp draws on threads of its own). */
  concurrency?: number;
  /**
   * A folder of images drawn before, by content: each image is drawn once into it and copied from
   * it afterwards. Tests share one (tests/setup/test-world.ts); without it every image is drawn.
   */
  cacheDir?: string;
}

/** Renders the jobs into demo/ of the media storage, a few at a time; returns how many it wrote. */
export async function renderImages(
  media: MediaStorage,
  jobs: readonly ImageJob[],
  { concurrency = 4, cacheDir }: RenderOptions = {},
): Promise<number> {
  const unique = [...new Map(jobs.map((j) => [j.file, j])).values()];
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < unique.length) {
      const job = unique[next++]!;
      if (await renderOne(media, job, cacheDir)) written++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, unique.length) }, worker));
  return written;
}
