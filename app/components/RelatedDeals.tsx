import type { DealCardView } from "../../core/cards/card-view.ts";
import { DealGrid } from "./DealCard.tsx";
import "../styles/related-deals.css";

/**
 * Under a deal: up to 6 live deals of the same store or category, newest hot first
 * (core/cards/related-deals.ts). Nothing at all when there are none (an educator post).
 */
export function RelatedDeals({ deals }: { deals: DealCardView[] }) {
  if (deals.length === 0) return null;
  return (
    <section className="related-deals" aria-labelledby="related-deals-heading">
      <h2 id="related-deals-heading">Related deals</h2>
      <DealGrid deals={deals} headingLevel={3} layoutToggle={false} />
    </section>
  );
}
