import * as cheerio from "cheerio";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { ValidationError } from "../../errors.ts";
import { assertLinkAllowed } from "../../settings/blocked-domains.ts";
import { insertMediaRecord } from "../../media/image-records.ts";
import { copyImageLink } from "../../media/outside-images.ts";
import { fetchBody, LinkFailed, LinkRefused } from "../freshness/link-check.ts";
import { linkKey } from "../identity.ts";
import { readProductPage, type PageFacts } from "./page-reader.ts";
import { requirePreviewer } from "./policy.ts";
import { PREVIEW_PICTURE_FOLDER } from "./unused-pictures.ts";
import { presentLinkPreview } from "./presenter.ts";
import * as repo from "./repository.ts";
import { PREVIEW_MESSAGES, type LinkPreviewInput } from "./schema.ts";

/**
 * Posting from a link (docs/decisions/0110-post-from-a-link.md): the issue asks for the form to be
 * filled within 2 s, so the page gets most of that, its picture the rest, and the database reads
 * run beside the picture's copy.
 */
export const PREVIEW_LIMITS = {
  /** The page and its picture together. */
  budgetMs: 1_800,
  connectTimeoutMs: 800,
  /** The page's answer, from request to its last byte. */
  pageAnswerMs: 1_200,
  /** Shop pages with their inline scripts run to 1–2 MB; anything past this is not a product page. */
  maxPageBytes: 3 * 1024 * 1024,
};

export type PreviewLimits = typeof PREVIEW_LIMITS;

export const PREVIEW_USER_AGENT =
  "ChalkboardDealsLinkPreview/1.0 (+reads a product page a member is posting; one request per paste)";

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

function hostOf(link: string): string | null {
  try {
    return new URL(link).hostname
      .toLowerCase()
      .replace(/\.$/, "")
      .replace(/^www\./, "");
  } catch {
    return null;
  }
}

/**
 * The store whose web address has the link's domain: the same host less "www.", or a subdomain
 * of it (shop.example.com for example.com); the longest match wins, so a store at
 * deals.example.com beats one at example.com. Each of `links` is tried in turn (the pasted link,
 * then where it redirected).
 */
export function matchStore<S extends { link: string }>(stores: S[], links: string[]): S | null {
  const withHosts = stores
    .map((store) => ({ store, host: hostOf(store.link) }))
    .filter((s): s is { store: S; host: string } => Boolean(s.host));
  for (const link of links) {
    const host = hostOf(link);
    if (!host) continue;
    let best: { store: S; host: string } | null = null;
    for (const candidate of withHosts) {
      const matches = host === candidate.host || host.endsWith(`.${candidate.host}`);
      if (matches && (!best || candidate.host.length > best.host.length)) best = candidate;
    }
    if (best) return best.store;
  }
  return null;
}

/** The page's charset as its Content-Type names it, for the decoder (the page's own meta tag otherwise). */
function charsetOf(contentType: string): string | undefined {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
}

/** A fetch failure in the words the member reads under the link field. */
function unreadable(error: unknown, limits: PreviewLimits, outOfTime: boolean): ValidationError {
  if (error instanceof LinkRefused) {
    return new ValidationError({ link: PREVIEW_MESSAGES.refused(error.message) });
  }
  if (error instanceof LinkFailed) {
    const message = error.message;
    if (outOfTime || /within/.test(message)) {
      return new ValidationError({ link: PREVIEW_MESSAGES.timedOut(limits.pageAnswerMs / 1000) });
    }
    const size = /larger than (.+)$/.exec(message);
    if (size) return new ValidationError({ link: PREVIEW_MESSAGES.tooLarge(size[1]!) });
    return new ValidationError({ link: PREVIEW_MESSAGES.failed(message) });
  }
  throw error;
}

export function createLinkPreviewService(deps: Deps) {
  const { db, config, now } = deps;
  return {
    /**
     * `POST /api/link_preview`: what the page at `link` says about its product, its picture copied
     * into the site's media as an upload of the member's, the store of its domain, the deals
     * already posted for the same product and its lowest price in 90 days. A page that cannot be
     * read is a ValidationError on `link` saying why.
     */
    async preview(
      user: CurrentUser | null,
      input: LinkPreviewInput,
      options: { limits?: Partial<PreviewLimits> } = {},
    ) {
      const member = requirePreviewer(user);
      const limits = { ...PREVIEW_LIMITS, ...options.limits };
      // A link to a blocked domain would be refused on posting (docs/decisions/0032): not read.
      await assertLinkAllowed(db, input.link);
      const started = Date.now();
      const deadline = AbortSignal.timeout(limits.budgetMs);

      let page: Awaited<ReturnType<typeof fetchBody>>;
      try {
        page = await fetchBody(input.link, {
          userAgent: PREVIEW_USER_AGENT,
          accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
          settings: {
            allowLoopback: config.linkCheckAllowLoopback,
            connectTimeoutMs: limits.connectTimeoutMs,
            answerTimeoutMs: limits.pageAnswerMs,
            maxBodyBytes: limits.maxPageBytes,
          },
          signal: deadline,
        });
      } catch (error) {
        throw unreadable(error, limits, deadline.aborted);
      }
      const type = page.contentType.split(";")[0]!.trim();
      const looksLikeHtml = /^\s*</.test(page.body.subarray(0, 512).toString("latin1"));
      if (type ? !HTML_TYPES.test(type) : !looksLikeHtml) {
        throw new ValidationError({ link: PREVIEW_MESSAGES.notHtml(type || "something else") });
      }
      const charset = charsetOf(page.contentType);
      const $ = cheerio.loadBuffer(page.body, {
        encoding: charset ? { transportLayerEncodingLabel: charset } : {},
      });
      const facts: PageFacts = readProductPage($, page.finalUrl);

      const key = linkKey(input.link);
      const remaining = Math.max(0, limits.budgetMs - (Date.now() - started));
      const [picture, stores, duplicates, lowest] = await Promise.all([
        // In the previews' own folder: the nightly sweep deletes a copy no deal was posted with.
        facts.image && remaining > 0
          ? copyImageLink(deps, facts.image, PREVIEW_PICTURE_FOLDER, {
              variants: true,
              limits: { budgetMs: remaining },
            })
          : null,
        repo.findStoresWithLinks(db),
        key ? repo.findProductDuplicates(db, key) : [],
        key ? repo.findLowestPrice90Days(db, key, facts.currency ?? "USD", now()) : undefined,
      ]);
      if (picture?.stored) await insertMediaRecord(db, member.id, picture.stored);
      else if (facts.image && picture?.reason) {
        deps.log.info(
          `A link preview's picture was dropped (${facts.image.slice(0, 200)}): ${picture.reason}.`,
        );
      }
      const store = matchStore(stores, [input.link, page.finalUrl]);
      return presentLinkPreview({
        facts,
        imageUrl: picture?.url ?? null,
        store,
        duplicates,
        lowest: lowest ?? null,
        finalUrl: page.finalUrl,
        now: now(),
      });
    },
  };
}

export type LinkPreviewService = ReturnType<typeof createLinkPreviewService>;
