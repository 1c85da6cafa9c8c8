import { changedFields, recordAudit } from "../audit/audit-trail.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { requireContentRole } from "../console/content-policy.ts";
import { compactOrder, moveRow, nextPosition } from "../console/ordered-rows.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import * as repo from "./social-links-repository.ts";
import type {
  SocialLinkCreateInput,
  SocialLinkIdInput,
  SocialLinkMoveInput,
  SocialLinkUpdateInput,
} from "./social-links-schema.ts";

const MISSING = "That social link does not exist.";

export function presentSocialLinkRow(row: repo.SocialLinkRow) {
  return {
    id: row.id,
    name: row.name,
    social_url: row.social_url,
    social_image: row.social_image,
    position: row.position,
  };
}

export type SocialLinkConsoleItem = ReturnType<typeof presentSocialLinkRow>;

function valuesOf(input: SocialLinkCreateInput): repo.SocialLinkValues {
  return { name: input.name, social_url: input.social_url, social_image: input.social_image };
}

/**
 * The footer's social links in the console (record 0033): add, edit, order, delete (admins). Each
 * write is one transaction with its audit entry and reports a "settings" change, which drops the
 * settings every page's footer reads.
 */
export function createSocialLinksConsoleService(deps: Deps) {
  const { db, changes } = deps;

  return {
    async list(user: CurrentUser | null): Promise<SocialLinkConsoleItem[]> {
      requireContentRole(user, "read");
      return (await repo.findSocialLinkRows(db)).map(presentSocialLinkRow);
    },

    async create(user: CurrentUser | null, input: SocialLinkCreateInput) {
      const actor = requireContentRole(user, "create");
      const values = valuesOf(input);
      const row = await db.transaction().execute(async (tx) => {
        const position = await nextPosition(tx, "social_links");
        const id = await repo.insertSocialLink(tx, values, position);
        await recordAudit(tx, actor, {
          action: "social.create",
          itemType: "social",
          itemId: id,
          after: { ...values, position },
        });
        return (await repo.findSocialLink(tx, id))!;
      });
      changes.emit("settings");
      return { message: `The ${row.name} link was added.`, item: presentSocialLinkRow(row) };
    },

    async update(user: CurrentUser | null, input: SocialLinkUpdateInput) {
      const actor = requireContentRole(user, "update");
      const values = valuesOf(input);
      const row = await db.transaction().execute(async (tx) => {
        const before = await repo.findSocialLink(tx, input.id, true);
        if (!before) throw new NotFoundError(MISSING);
        await repo.updateSocialLink(tx, input.id, values);
        await recordAudit(tx, actor, {
          action: "social.update",
          itemType: "social",
          itemId: input.id,
          ...changedFields(before, values),
        });
        return (await repo.findSocialLink(tx, input.id))!;
      });
      changes.emit("settings");
      return { message: `The ${row.name} link was saved.`, item: presentSocialLinkRow(row) };
    },

    async remove(user: CurrentUser | null, { id }: SocialLinkIdInput) {
      const actor = requireContentRole(user, "delete");
      const row = await db.transaction().execute(async (tx) => {
        const before = await repo.findSocialLink(tx, id, true);
        if (!before) throw new NotFoundError(MISSING);
        await repo.deleteSocialLink(tx, id);
        await compactOrder(tx, "social_links");
        await recordAudit(tx, actor, {
          action: "social.delete",
          itemType: "social",
          itemId: id,
          before,
        });
        return before;
      });
      changes.emit("settings");
      return { message: `The ${row.name} link was deleted.` };
    },

    async move(user: CurrentUser | null, { id, direction }: SocialLinkMoveInput) {
      const actor = requireContentRole(user, "order");
      await db.transaction().execute(async (tx) => {
        const before = await repo.findSocialLink(tx, id);
        if (!before) throw new NotFoundError(MISSING);
        const order = await moveRow(tx, "social_links", id, direction);
        await recordAudit(tx, actor, {
          action: "social.move",
          itemType: "social",
          itemId: id,
          before: { position: before.position },
          after: { position: order!.indexOf(id) + 1 },
        });
      });
      changes.emit("settings");
      return { message: "The social links' order was saved." };
    },
  };
}

export type SocialLinksConsoleService = ReturnType<typeof createSocialLinksConsoleService>;
