import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/**
 * A page request's route label: its React Router pattern ("/post/:uniqueId/:slug"), never its
 * path, so that a metric has one series per page, not one per deal (docs/decisions/0094-metrics.md).
 * A data request (`/post/1/a.data`, `/_root.data`) is its page's.
 */
export function pageRouteLabels(build: Pick<ServerBuild, "routes">): (url: string) => string {
  const manifest = Object.values(build.routes).filter((route) => route !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    manifest
      .filter((route) => route.parentId === parentId)
      .map(
        (route) =>
          ({
            id: route.id,
            path: route.path,
            index: route.index,
            caseSensitive: route.caseSensitive,
            ...(route.index ? {} : { children: childrenOf(route.id) }),
          }) as RouteObject,
      );
  const tree = childrenOf(undefined);
  return (url) => {
    let pathname = url.split("?", 1)[0]!;
    if (pathname === "/_root.data") pathname = "/";
    else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length);
    const matches = matchRoutes(tree, pathname);
    if (!matches) return "(no page)";
    const parts = matches.map((match) => match.route.path).filter(Boolean);
    return `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
  };
}
