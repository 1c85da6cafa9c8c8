/** The CMS page every footer links to, at an address of its own (/privacy-policy). */
export const PRIVACY_POLICY_SLUG = "privacy-policy";

/** Where the public reads a CMS page: /privacy-policy, or /page/<slug> for every other page. */
export function cmsPagePath(slug: string): string {
  return slug === PRIVACY_POLICY_SLUG ? `/${PRIVACY_POLICY_SLUG}` : `/page/${slug}`;
}
