import { z } from "zod";
import { TRUE, isoDateTime, message } from "../../responses.ts";

const OwnRequest = z.strictObject({
  id: z.number(),
  method: z.enum(["school_email", "review"]),
  school_email: z.string().describe("'' for a review request"),
  note: z.string().describe("'' for a school-address request"),
  status: z.enum(["pending", "approved", "rejected", "expired", "withdrawn"]),
  reason: z.string().describe("a rejection's reason, shown to the member"),
  created_at: isoDateTime,
  expires_at: isoDateTime.nullable().describe("when a school-address link stops working"),
});

const AcceptedDomains = z.strictObject({
  built_in: z.array(z.string()).describe("'.edu' and 'k12.<state>.us'"),
  listed: z.array(z.string()).describe("the console's list; each entry covers its subdomains"),
});

export const EducatorStatusResponse = z.strictObject({
  status: TRUE,
  verified_educator: z.boolean(),
  request: OwnRequest.nullable().describe("the member's latest request"),
  accepted_domains: AcceptedDomains,
});

export const EducatorMessageResponse = z.strictObject(message);

const PendingReview = z.strictObject({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  user_email: z.string(),
  user_type: z.string(),
  user_joined: isoDateTime,
  note: z.string(),
  created_at: isoDateTime,
});

export const EducatorConsoleResponse = z.strictObject({
  status: TRUE,
  requests: z.array(PendingReview).describe("open review requests, oldest first (100 at most)"),
  pending_total: z.number().int(),
  built_in_domains: z.array(z.string()),
  domains: z.array(z.string()),
});

export const SchoolDomainsResponse = z.strictObject({ ...message, domains: z.array(z.string()) });

const OwnWishlistEntry = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  school_location: z.string(),
  amazon_wishlist: z.string(),
  status: z.enum(["pending", "approved", "rejected"]),
  review_reason: z.string(),
  created_at: isoDateTime,
});

export const OwnWishlistResponse = z.strictObject({
  status: TRUE,
  verified_educator: z.boolean(),
  entries: z.array(OwnWishlistEntry),
});

export const OwnWishlistSavedResponse = z.strictObject({ ...message, item: OwnWishlistEntry });

export const PendingWishlistResponse = z.strictObject({
  status: TRUE,
  items: z.array(
    OwnWishlistEntry.extend({ user_id: z.number().nullable(), user_name: z.string() }),
  ),
});
