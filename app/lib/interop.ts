/**
 * A CommonJS package's default export (rc-slider, react-slick). Bundlers hand it over as is; Node's
 * ESM loader, running the server build, wraps it once more as `default.default`.
 */
export function commonJsDefault<T>(imported: T): T {
  const wrapped = imported as T | { default: T };
  return wrapped !== null && typeof wrapped === "object" && "default" in wrapped
    ? wrapped.default
    : (wrapped as T);
}
