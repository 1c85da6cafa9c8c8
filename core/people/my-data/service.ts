import { requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { UnauthenticatedError } from "../../errors.ts";
import { findEmailPreferences } from "../../member/notifications/preferences.ts";
import * as repo from "./repository.ts";
import { myDataFileName, presentMyData, type ExportRows } from "./presenter.ts";

/**
 * "Download my data" (docs/decisions/0084-download-my-data.md): everything the site keeps about
 * the signed-in member, as one file. Read in one read-only, repeatable-read transaction, so that
 * the file is one moment's picture: a comment posted while it is read is in every list that names
 * it or in none.
 */
export function createDataExportService({ db, config, now }: Deps) {
  return {
    /** `GET /api/my_data`: the member's data, and the name the file is saved under. */
    async myData(user: CurrentUser | null) {
      const member = requireUser(user);
      const at = now();
      const rows = await db
        .transaction()
        .setIsolationLevel("repeatable read")
        .setAccessMode("read only")
        .execute(async (tx): Promise<ExportRows | null> => {
          const found = await repo.findUser(tx, member.id);
          // Deleted between the session check and now: there is no member left to export.
          if (!found) return null;
          // One after another, as on one connection the queries would run in any case.
          const lists = {
            socialAccounts: await repo.findSocialAccounts(tx, member.id),
            subscriptions: await repo.findSubscriptions(tx, member.id),
            undeliverable: await repo.findUndeliverable(tx, found.email),
            posts: await repo.findPosts(tx, member.id),
            comments: await repo.findComments(tx, member.id),
            likes: await repo.findLikes(tx, member.id),
            commentLikes: await repo.findCommentLikes(tx, member.id),
            expiryMarks: await repo.findExpiryMarks(tx, member.id),
            couponFeedback: await repo.findCouponFeedback(tx, member.id),
            reports: await repo.findReports(tx, member.id),
            savedDeals: await repo.findSavedDeals(tx, member.id),
            followedMembers: await repo.findFollowedMembers(tx, member.id),
            followedStores: await repo.findFollowedStores(tx, member.id),
            followedCategories: await repo.findFollowedCategories(tx, member.id),
            alerts: await repo.findAlerts(tx, member.id),
            notifications: await repo.findNotifications(tx, member.id),
            pushSubscriptions: await repo.findPushSubscriptions(tx, member.id),
            pushMessages: await repo.findPushMessages(tx, member.id),
            emailPreferences: await findEmailPreferences(tx, member.id),
            sessions: await repo.findSessions(tx, member.id),
            uploads: await repo.findUploads(tx, member.id),
            educatorRequests: await repo.findEducatorRequests(tx, member.id),
            wishlistSubmissions: await repo.findWishlistSubmissions(tx, member.id),
            contactMessages: await repo.findContactMessages(tx, member.id),
            weeklyDigests: await repo.findWeeklyDigests(tx, member.id),
            reputation: await repo.findReputation(tx, member.id),
            votingRestrictions: await repo.findVotingRestrictions(tx, member.id),
          };
          const storeIds = [...new Set(lists.alerts.flatMap((a) => a.store_ids.map(Number)))];
          const storeTitles = new Map(
            (await repo.findStoreTitles(tx, storeIds)).map((s) => [s.id, s.title]),
          );
          const digestPostIds = [
            ...new Set(lists.weeklyDigests.flatMap((d) => d.post_ids.map(Number))),
          ];
          const digestPosts = new Map(
            (await repo.findPostsById(tx, digestPostIds)).map((p) => [Number(p.id), p]),
          );
          return { user: found, ...lists, storeTitles, digestPosts };
        });
      if (!rows) throw new UnauthenticatedError();
      return {
        fileName: myDataFileName(at),
        data: presentMyData(rows, {
          publicUrl: config.publicUrl,
          at,
          sessionId: member.sessionId,
        }),
      };
    },
  };
}
