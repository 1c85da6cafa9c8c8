import { Link } from "react-router";

/**
 * The "Verified educator" badge beside a member's name: on their profile, their posts' author line
 * and their comments (docs/decisions/0041-verified-educators.md). The words are the badge's text,
 * so screen readers and search read it; the check mark is decoration.
 */
export function EducatorBadge({ verified }: { verified: boolean | undefined }) {
  if (!verified) return null;
  return (
    <span className="educator-badge" title="This member's work at a school was verified">
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        <path d="M6.4 11.6 2.8 8l1.1-1.1 2.5 2.5 5.7-5.7L13.2 4.8z" fill="currentColor" />
      </svg>
      Verified educator
    </span>
  );
}

/**
 * My Account's way in: "Get verified as an educator" for members, "Add your Teachers Wishlist" for
 * verified educators.
 */
export function EducatorAccountLink({ verified }: { verified: boolean }) {
  return verified ? (
    <Link to="/user/wishlist/new" className="profile-notifications">
      Add your Teachers Wishlist
    </Link>
  ) : (
    <Link to="/user/verify-educator" className="profile-notifications">
      Get verified as an educator
    </Link>
  );
}
