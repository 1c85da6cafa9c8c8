import { z } from "zod";
import { direction, recordId, requiredText, webAddress } from "../console/content-fields.ts";
import { SOCIAL_ICONS } from "./social-icons.ts";

const ICON_VALUES = SOCIAL_ICONS.map((icon) => icon.value) as [string, ...string[]];

const socialLinkFields = {
  name: requiredText("Name", 60),
  social_url: webAddress("Address", { required: true }),
  social_image: z.enum(ICON_VALUES, { error: "Choose an icon from the list." }),
};

/** `POST /api/admin/social/create`. */
export const SocialLinkCreateBody = z.object(socialLinkFields);
/** `POST /api/admin/social/update`. */
export const SocialLinkUpdateBody = z.object({ id: recordId("id"), ...socialLinkFields });
/** `POST /api/admin/social/delete`. */
export const SocialLinkIdBody = z.object({ id: recordId("id") });
/** `POST /api/admin/social/move`. */
export const SocialLinkMoveBody = z.object({ id: recordId("id"), direction });

export type SocialLinkCreateInput = z.output<typeof SocialLinkCreateBody>;
export type SocialLinkUpdateInput = z.output<typeof SocialLinkUpdateBody>;
export type SocialLinkIdInput = z.output<typeof SocialLinkIdBody>;
export type SocialLinkMoveInput = z.output<typeof SocialLinkMoveBody>;
