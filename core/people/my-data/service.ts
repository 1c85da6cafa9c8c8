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
          // One connection: the queries run one after another whatever the order they are made in.
          const [
            socialAccounts,
            subscriptions,
            undeliverable,
            posts,
            comments,
            likes,
            expiryMarks,
            couponFeedback,
            reports,
            savedDeals,
            followedMembers,
            followedStores,
            followedCategories,
            alerts,
            notifications,
            emailPreferences,
            sessions,
            uploads,
            educatorRequests,
            wishlistSubmissions,
            contactMessages,
            weeklyDigests,
            reputation,
          ] = await Promise.all([
            repo.findSocialAccounts(tx, member.id),
            repo.findSubscriptions(tx, member.id),
            repo.findUndeliverable(tx, found.email),
            repo.findPosts(tx, member.id),
            repo.findComments(tx, member.id),
            repo.findLikes(tx, member.id),
            repo.findExpiryMarks(tx, member.id),
            repo.findCouponFeedback(tx, member.id),
            repo.findReports(tx, member.id),
            repo.findSavedDeals(tx, member.id),
            repo.findFollowedMembers(tx, member.id),
            repo.findFollowedStores(tx, member.id),
            repo.findFollowedCategories(tx, member.id),
            repo.findAlerts(tx, member.id),
            repo.findNotifications(tx, member.id),
            findEmailPreferences(tx, member.id),
            repo.findSessions(tx, member.id),
            repo.findUploads(tx, member.id),
            repo.findEducatorRequests(tx, member.id),
            repo.findWishlistSubmissions(tx, member.id),
            repo.findContactMessages(tx, member.id),
            repo.findWeeklyDigests(tx, member.id),
            repo.findReputation(tx, member.id),
          ]);
          const storeIds = [...new Set(alerts.flatMap((a) => a.store_ids.map(Number)))];
          const storeTitles = new Map(
            (await repo.findStoreTitles(tx, storeIds)).map((s) => [s.id, s.title]),
          );
          const digestPostIds = [...new Set(weeklyDigests.flatMap((d) => d.post_ids.map(Number)))];
          const digestPosts = new Map(
            (await repo.findPostsById(tx, digestPostIds)).map((p) => [Number(p.id), p]),
          );
          return {
            user: found,
            socialAccounts,
            subscriptions,
            undeliverable,
            posts,
            comments,
            likes,
            expiryMarks,
            couponFeedback,
            reports,
            savedDeals,
            followedMembers,
            followedStores,
            followedCategories,
            alerts,
            storeTitles,
            notifications,
            emailPreferences,
            sessions,
            uploads,
            educatorRequests,
            wishlistSubmissions,
            contactMessages,
            weeklyDigests,
            digestPosts,
            reputation,
          };
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
