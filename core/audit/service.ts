import { requireRole } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { CONSOLE_PAGE_SIZE } from "../list-query.ts";
import { lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { presentAuditEntry, type AuditPage } from "./presenter.ts";
import * as repo from "./repository.ts";
import type { AuditQueryInput } from "./schema.ts";

/** The audit log, read by staff: newest first, filtered by actor, action and item. */
export function createAuditService({ db }: Deps) {
  return {
    async list(user: CurrentUser | null, query: AuditQueryInput): Promise<AuditPage> {
      requireRole(user, "moderator");
      const { page, ...filter } = query;
      const [total, rows] = await Promise.all([
        repo.countAuditEntries(db, filter),
        repo.findAuditEntries(db, filter, {
          limit: CONSOLE_PAGE_SIZE,
          offset: (page - 1) * CONSOLE_PAGE_SIZE,
        }),
      ]);
      return {
        entries: rows.map(presentAuditEntry),
        total,
        currentPage: page,
        lastPage: lastPage(total, CONSOLE_PAGE_SIZE),
      };
    },

    /** The actions and item types found in the log, for the filter form's choices. */
    async vocabulary(user: CurrentUser | null) {
      requireRole(user, "moderator");
      return repo.findAuditVocabulary(db);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
