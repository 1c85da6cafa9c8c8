import { z } from "zod";
import { uniqueId } from "../schema.ts";

/** "worked" as JSON sends it (true / false) or a form does ("true" / "false"). */
const worked = z.preprocess(
  (value) => (value === "true" ? true : value === "false" ? false : value),
  z.boolean({ error: "worked must be true or false." }),
);

/** `POST /api/coupon_feedback`: did the deal's coupon code work for the signed-in member? */
export const CouponFeedbackBody = z.object({ unique_id: uniqueId, worked });
export type CouponFeedbackInput = z.output<typeof CouponFeedbackBody>;

/** `POST /api/confirm_deal`: the signed-in member saw the deal still work. */
export const ConfirmDealBody = z.object({ unique_id: uniqueId });
export type ConfirmDealInput = z.output<typeof ConfirmDealBody>;

/** What members are told, in one place for the API, the page and the tests. */
export const FRESHNESS_MESSAGES = {
  notFound: "That deal does not exist or was deleted.",
  notPublic: "That deal is not public, so it cannot be rated or confirmed.",
  notDeal: "Only deals can be confirmed; this is a discussion.",
  notCoupon:
    "This deal has no coupon code, so there is nothing to rate. Use “Still works” instead.",
  isCoupon: "This deal has a coupon code: say whether it worked instead.",
  expired: "This deal has expired, so it can no longer be rated or confirmed.",
  own: "You posted this deal, so your answer would not tell anyone anything new.",
  worked: "Thanks! We counted that the code worked for you.",
  didNotWork: "Thanks! We counted that the code did not work for you.",
  confirmed: "Thanks for confirming that this deal still works.",
} as const;
