import { formatCount } from "../lib/format.ts";

/** "N clicks in the last 30 days" on a store page: people who followed its deals through /go. */
export function StoreClicks({ clicks }: { clicks: number }) {
  return (
    <p className="store-clicks">
      {clicks === 1 ? "1 click" : `${formatCount(clicks)} clicks`} in the last 30 days
    </p>
  );
}
