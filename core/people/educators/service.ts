import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database } from "../../../db/schema.ts";
import { recordAudit } from "../../audit/audit-trail.ts";
import { hashToken, type CurrentUser } from "../../auth/sessions.ts";
import { isUniqueViolation } from "../../console/unique-violation.ts";
import type { Deps } from "../../deps.ts";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RejectedError,
  ValidationError,
} from "../../errors.ts";
import { educatorConfirmMail } from "../../mail/templates.ts";
import { notify } from "../../member/notifications/notify.ts";
import type { SettingsService } from "../../settings/service.ts";
import { BUILT_IN_RULES, domainOf, matchSchoolDomain } from "./domains.ts";
import { requireRequester, requireReviewer } from "./policy.ts";
import {
  presentOwnRequest,
  presentOwnWishlistEntry,
  presentPendingReview,
  presentPendingWishlistEntry,
} from "./presenter.ts";
import { isVerifiedEducator } from "./educator-flag.ts";
import * as repo from "./repository.ts";
import {
  EDUCATOR_LINK_TTL_HOURS,
  EDUCATOR_LINK_TTL_MS,
  EDUCATOR_MESSAGES as M,
  EDUCATOR_REQUESTS_PER_DAY,
  DOMAINS_LIST_MAX,
  isFreeMailDomain,
  notSchoolDomainMessage,
  type ApproveRequestInput,
  type ConfirmEducatorInput,
  type OwnWishlistInput,
  type RejectInput,
  type ReviewRequestInput,
  type SchoolDomainInput,
  type SchoolEmailInput,
} from "./schema.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The console shows this many open requests or entries at a time, oldest first. */
const QUEUE_LIMIT = 100;
/** A teacher may have this many wishlist entries waiting at once. */
const OPEN_WISHLIST_ENTRIES = 1;
const REQUEST_MISSING = "That request does not exist.";
const REQUEST_CLOSED = "That request has already been dealt with.";
const ENTRY_MISSING = "That wishlist entry does not exist.";
const ENTRY_CLOSED = "That wishlist entry has already been reviewed.";

/**
 * Verified educators (docs/decisions/0041-verified-educators.md): a member asks by a school
 * address's mailed link or by a note moderators review; moderators decide, keep the list of
 * school domains and approve teachers' own Teachers Wishlist entries.
 */
export function createEducatorsService(deps: Deps, settings: Pick<SettingsService, "get">) {
  const { db, config, mail, changes, now } = deps;

  /**
   * Runs a new request's checks and write in one transaction, the member's row locked: not yet
   * verified, no open request, and under the day's allowance.
   */
  async function newRequest<T>(
    user: CurrentUser | null,
    work: (tx: Transaction<Database>, member: { id: number; name: string }, at: Date) => Promise<T>,
  ): Promise<T> {
    const current = requireRequester(user);
    const at = now();
    try {
      return await db.transaction().execute(async (tx) => {
        const member = await repo.lockMember(tx, current.id);
        if (!member) throw new NotFoundError("Your account no longer exists.");
        if (member.verified_educator) throw new ConflictError(M.alreadyVerified);
        await repo.expireStaleRequests(tx, member.id, at);
        if (await repo.lockOpenRequest(tx, member.id)) throw new ConflictError(M.openRequest);
        const recent = await repo.countRequestsSince(
          tx,
          member.id,
          new Date(at.getTime() - DAY_MS),
        );
        if (recent >= EDUCATOR_REQUESTS_PER_DAY) throw new RejectedError(M.tooMany);
        return await work(tx, member, at);
      });
    } catch (error) {
      // A second request racing the first past the check meets the one-open-request index.
      if (isUniqueViolation(error)) throw new ConflictError(M.openRequest);
      throw error;
    }
  }

  async function acceptedDomains() {
    return { built_in: [...BUILT_IN_RULES], listed: await repo.listSchoolDomains(db) };
  }

  /** Marks the member verified and tells them, in the transaction that closed their request. */
  async function grant(tx: Transaction<Database>, userId: number, at: Date, how: string) {
    await repo.markVerified(tx, userId, at);
    await notify(tx, [
      {
        userId,
        kind: "educator_verified",
        message: `You are now a verified educator (${how}). Your profile, posts and comments show the badge, and you can add your Teachers Wishlist.`,
        link: "/user/wishlist/new",
      },
    ]);
  }

  return {
    /** The member's verification state, their latest request and what addresses are accepted. */
    async status(user: CurrentUser | null) {
      const current = requireRequester(user);
      const [verified, latest, accepted] = await Promise.all([
        isVerifiedEducator(db, current.id),
        repo.findLatestRequest(db, current.id),
        acceptedDomains(),
      ]);
      return {
        verified_educator: verified,
        request: latest ? presentOwnRequest(latest, now()) : null,
        accepted_domains: accepted,
      };
    },

    /** `POST /api/educator_verification/school_email`: mails a single-use link to the address. */
    async requestBySchoolEmail(user: CurrentUser | null, input: SchoolEmailInput) {
      const domain = domainOf(input.email);
      if (!domain) throw new ValidationError({ email: M.emailInvalid });
      const listed = await repo.listSchoolDomains(db);
      if (!matchSchoolDomain(domain, listed)) {
        throw new ValidationError({ email: notSchoolDomainMessage(domain, listed) });
      }
      const site = (await settings.get()).websiteName;
      const code = randomBytes(32).toString("base64url");
      await newRequest(user, async (tx, member, at) => {
        await repo.insertRequest(tx, {
          userId: member.id,
          method: "school_email",
          schoolEmail: input.email,
          tokenHash: hashToken(code),
          tokenExpiresAt: new Date(at.getTime() + EDUCATOR_LINK_TTL_MS),
          at,
        });
        // The request and its mail: both or neither.
        await mail.send(
          {
            to: input.email,
            ...educatorConfirmMail({
              siteName: site,
              name: member.name,
              schoolEmail: input.email,
              link: `${config.publicUrl}/user/verify-educator/confirm/${code}`,
              validHours: EDUCATOR_LINK_TTL_HOURS,
            }),
          },
          tx,
        );
      });
      return {
        message: `We sent a confirmation link to ${input.email}. Open it within ${EDUCATOR_LINK_TTL_HOURS} hours to be verified.`,
      };
    },

    /** `POST /api/educator_verification/review`: a note for the moderators. */
    async requestReview(user: CurrentUser | null, input: ReviewRequestInput) {
      await newRequest(user, (tx, member, at) =>
        repo.insertRequest(tx, { userId: member.id, method: "review", note: input.note, at }),
      );
      return {
        message:
          "Thank you. A moderator will review your request; you will find the answer in your notifications.",
      };
    },

    /** `POST /api/educator_verification/withdraw`: closes the member's open request. */
    async withdraw(user: CurrentUser | null) {
      const current = requireRequester(user);
      const at = now();
      const closed = await db.transaction().execute(async (tx) => {
        const open = await repo.lockOpenRequest(tx, current.id);
        return open ? repo.closeRequest(tx, open.id, { status: "withdrawn", at }) : false;
      });
      if (!closed) throw new NotFoundError("You have no request waiting.");
      return { message: "Your request was withdrawn. You can ask again in either way." };
    },

    /**
     * `POST /api/educator_verification/confirm`: the mailed link's code, used once before it
     * expires, marks its member verified. It needs no session: the code is the proof.
     */
    async confirm(input: ConfirmEducatorInput) {
      const at = now();
      const outcome = await db.transaction().execute(async (tx) => {
        const row = await repo.lockRequestByToken(tx, hashToken(input.code));
        if (!row || row.user_deleted_at) return "invalid" as const;
        if (row.status === "approved") return "used" as const;
        if (row.status === "expired") return "expired" as const;
        if (row.status !== "pending") return "invalid" as const;
        if (!row.token_expires_at || row.token_expires_at.getTime() <= at.getTime()) {
          await repo.closeRequest(tx, row.id, { status: "expired", at });
          return "expired" as const;
        }
        if (!(await repo.closeRequest(tx, row.id, { status: "approved", at }))) {
          return "used" as const;
        }
        await grant(tx, row.user_id, at, `school address ${row.school_email}`);
        return "done" as const;
      });
      if (outcome === "invalid") throw new RejectedError(M.linkInvalid);
      if (outcome === "used") throw new RejectedError(M.linkUsed);
      if (outcome === "expired") throw new RejectedError(M.linkExpired);
      changes.emit("users");
      return { message: "Your school address is confirmed: you are now a verified educator." };
    },

    // The console ------------------------------------------------------------------------------

    /** `GET /api/admin/educators`: open review requests and the school-domain list. */
    async consoleOverview(user: CurrentUser | null) {
      requireReviewer(user);
      const [rows, total, domains] = await Promise.all([
        repo.listPendingReviews(db, QUEUE_LIMIT),
        repo.countPendingReviews(db),
        repo.listSchoolDomains(db),
      ]);
      return {
        requests: rows.map(presentPendingReview),
        pending_total: total,
        built_in_domains: [...BUILT_IN_RULES],
        domains,
      };
    },

    /** `POST /api/admin/educators/approve`. */
    async approve(user: CurrentUser | null, { id }: ApproveRequestInput) {
      const actor = requireReviewer(user);
      const at = now();
      const name = await db.transaction().execute(async (tx) => {
        const row = await repo.lockRequest(tx, id);
        if (!row || row.user_deleted_at || row.method !== "review") {
          throw new NotFoundError(REQUEST_MISSING);
        }
        if (!(await repo.closeRequest(tx, id, { status: "approved", at, by: actor.id }))) {
          throw new ConflictError(REQUEST_CLOSED);
        }
        await grant(tx, row.user_id, at, "reviewed by a moderator");
        await recordAudit(tx, actor, {
          action: "educator.approve",
          itemType: "user",
          itemId: row.user_id,
          before: { verified_educator: false, request: id },
          after: { verified_educator: true },
        });
        return row.user_name;
      });
      changes.emit("users");
      return { message: `${name} is now a verified educator.` };
    },

    /** `POST /api/admin/educators/reject` {id, reason}: the member is told the reason. */
    async reject(user: CurrentUser | null, { id, reason }: RejectInput) {
      const actor = requireReviewer(user);
      const at = now();
      const name = await db.transaction().execute(async (tx) => {
        const row = await repo.lockRequest(tx, id);
        if (!row || row.user_deleted_at || row.method !== "review") {
          throw new NotFoundError(REQUEST_MISSING);
        }
        if (!(await repo.closeRequest(tx, id, { status: "rejected", at, by: actor.id, reason }))) {
          throw new ConflictError(REQUEST_CLOSED);
        }
        await notify(tx, [
          {
            userId: row.user_id,
            kind: "educator_rejected",
            message: `Your request to be a verified educator was not approved: ${reason}`,
            link: "/user/verify-educator",
          },
        ]);
        await recordAudit(tx, actor, {
          action: "educator.reject",
          itemType: "user",
          itemId: row.user_id,
          reason,
          before: { request: id, status: "pending" },
          after: { status: "rejected" },
        });
        return row.user_name;
      });
      return { message: `${name}'s request was rejected.` };
    },

    /** `POST /api/admin/school_domains/add`. */
    async addDomain(user: CurrentUser | null, { domain }: SchoolDomainInput) {
      const actor = requireReviewer(user);
      if (isFreeMailDomain(domain)) throw new ValidationError({ domain: M.freeMail });
      if (matchSchoolDomain(domain, [])) {
        throw new ValidationError({
          domain: `${domain} is accepted already (${BUILT_IN_RULES.join(", ")} always are).`,
        });
      }
      const added = await db.transaction().execute(async (tx) => {
        const count = (await repo.listSchoolDomains(tx)).length;
        if (count >= DOMAINS_LIST_MAX) {
          throw new ConflictError(`The list holds at most ${DOMAINS_LIST_MAX} domains.`);
        }
        if (!(await repo.insertSchoolDomain(tx, domain, actor.id))) return false;
        await recordAudit(tx, actor, {
          action: "school_domain.add",
          itemType: "school_domain",
          itemId: domain,
          after: { domain },
        });
        return true;
      });
      if (!added) throw new ConflictError(`${domain} is already in the list.`);
      return {
        message: `Addresses at ${domain} are now accepted.`,
        domains: await repo.listSchoolDomains(db),
      };
    },

    /** `POST /api/admin/school_domains/remove`. */
    async removeDomain(user: CurrentUser | null, { domain }: SchoolDomainInput) {
      const actor = requireReviewer(user);
      const removed = await db.transaction().execute(async (tx) => {
        if (!(await repo.deleteSchoolDomain(tx, domain))) return false;
        await recordAudit(tx, actor, {
          action: "school_domain.remove",
          itemType: "school_domain",
          itemId: domain,
          before: { domain },
        });
        return true;
      });
      if (!removed) throw new NotFoundError(`${domain} is not in the list.`);
      return {
        message: `${domain} was removed from the list.`,
        domains: await repo.listSchoolDomains(db),
      };
    },

    // Teachers' own wishlist entries -------------------------------------------------------------

    /** Whether the signed-in member may add an entry, and their entries so far. */
    async ownWishlist(user: CurrentUser | null) {
      const current = requireRequester(user);
      const [verified, rows] = await Promise.all([
        isVerifiedEducator(db, current.id),
        repo.listOwnWishlistEntries(db, current.id),
      ]);
      return { verified_educator: verified, entries: rows.map(presentOwnWishlistEntry) };
    },

    /** `POST /api/wishlist_submit`: a verified educator's entry, waiting for a moderator. */
    async submitWishlist(user: CurrentUser | null, input: OwnWishlistInput) {
      const current = requireRequester(user);
      const at = now();
      const row = await db.transaction().execute(async (tx) => {
        const member = await repo.lockMember(tx, current.id);
        if (!member?.verified_educator) throw new ForbiddenError(M.notEducator);
        if ((await repo.countOpenOwnEntries(tx, member.id)) >= OPEN_WISHLIST_ENTRIES) {
          throw new ConflictError(
            "Your wishlist entry is already waiting for review. You can send another once it is reviewed.",
          );
        }
        const id = await repo.insertOwnWishlistEntry(tx, input, member.id, at);
        return (await repo.lockWishlistEntry(tx, id))!;
      });
      return {
        message:
          "Thank you. Your wishlist will show on the home page once a moderator has approved it.",
        item: presentOwnWishlistEntry(row),
      };
    },

    /** `GET /api/admin/wishlist/pending`. */
    async pendingWishlist(user: CurrentUser | null) {
      requireReviewer(user);
      return (await repo.listPendingWishlist(db, QUEUE_LIMIT)).map(presentPendingWishlistEntry);
    },

    /** `POST /api/admin/wishlist/approve`: the entry goes public, last in the list. */
    async approveWishlist(user: CurrentUser | null, { id }: ApproveRequestInput) {
      const actor = requireReviewer(user);
      const row = await db.transaction().execute(async (tx) => {
        const entry = await repo.lockWishlistEntry(tx, id);
        if (!entry) throw new NotFoundError(ENTRY_MISSING);
        if (entry.status !== "pending") throw new ConflictError(ENTRY_CLOSED);
        await repo.approveWishlistEntry(tx, id);
        if (entry.user_id) {
          await notify(tx, [
            {
              userId: entry.user_id,
              kind: "wishlist_approved",
              message: "Your Teachers Wishlist entry was approved: it now shows on the home page.",
              link: "/",
            },
          ]);
        }
        await recordAudit(tx, actor, {
          action: "wishlist.approve",
          itemType: "wishlist",
          itemId: id,
          before: { status: "pending" },
          after: { status: "approved" },
        });
        return entry;
      });
      changes.emit("cms");
      return { message: `${row.first_name} ${row.last_name}'s wishlist is now public.` };
    },

    /** `POST /api/admin/wishlist/reject` {id, reason}. */
    async rejectWishlist(user: CurrentUser | null, { id, reason }: RejectInput) {
      const actor = requireReviewer(user);
      const row = await db.transaction().execute(async (tx) => {
        const entry = await repo.lockWishlistEntry(tx, id);
        if (!entry) throw new NotFoundError(ENTRY_MISSING);
        if (entry.status !== "pending") throw new ConflictError(ENTRY_CLOSED);
        await repo.rejectWishlistEntry(tx, id, reason);
        if (entry.user_id) {
          await notify(tx, [
            {
              userId: entry.user_id,
              kind: "wishlist_rejected",
              message: `Your Teachers Wishlist entry was not approved: ${reason}`,
              link: "/user/wishlist/new",
            },
          ]);
        }
        await recordAudit(tx, actor, {
          action: "wishlist.reject",
          itemType: "wishlist",
          itemId: id,
          reason,
          before: { status: "pending" },
          after: { status: "rejected" },
        });
        return entry;
      });
      return { message: `${row.first_name} ${row.last_name}'s wishlist was rejected.` };
    },
  };
}

export type EducatorsService = ReturnType<typeof createEducatorsService>;
