import { z } from "zod";
import { direction, recordId, requiredText, webAddress } from "../console/content-fields.ts";

/**
 * The icons a social link may name (social_links.social_image holds the icon's class, as the
 * spec's data does); app/components/SocialIcon.tsx draws each of them.
 */
export const SOCIAL_ICONS = [
  { value: "icon-facebook", label: "Facebook" },
  { value: "icon-twitter", label: "Twitter / X" },
  { value: "icon-x", label: "X" },
  { value: "icon-instagram", label: "Instagram" },
  { value: "icon-pinterest", label: "Pinterest" },
  { value: "icon-youtube", label: "YouTube" },
  { value: "icon-linkedin", label: "LinkedIn" },
  { value: "icon-link", label: "Other (a link icon)" },
] as const;

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
