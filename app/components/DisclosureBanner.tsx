export function DisclosureBanner() {
  return (
    <p className="disclosure-banner">
      Chalkboard Deals may earn a commission from brands, deals or stores featured here, and posts
      may contain affiliate links.
    </p>
  );
}
