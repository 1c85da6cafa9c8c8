import { Link } from "react-router";

/**
 * My Account's warning that mail to the member's address was refused or given up
 * (docs/decisions/0083-mail-delivery.md): nothing more is sent to it until it changes or staff
 * clear it, so the member is told where to look.
 */
export function MailDeliveryBanner({ address }: { address: string }) {
  return (
    <p className="alert alert-danger mail-delivery-banner" role="alert">
      We could not deliver mail to <strong>{address}</strong> — check your address.{" "}
      <Link to="/user/profile-edit">Edit profile</Link>
    </p>
  );
}
