import type { ServerBuild } from "react-router";

/**
 * A page request's route label: its React Router pattern ("/post/:uniqueId/:slug"), never its
 * path, so that a metric has one series per page, not one per deal (docs/decisions/0094-metrics.md).
 * A data request (`/post/1/a.data`, `/_root.data`) is its page's.
 *
 * React Router's `matchRoutes` flattens, ranks and compiles every route at each call (about 2 ms
 * for this site's routes), too much for every request. So the routes are flattened and ranked
 * once, by React Router's own scores (`computeScore` in its matcher: a static segment 10, a
 * parameter 3, an empty one 1, an index route +2, a splat -2, plus one per segment; ties keep the
 * routes' order), each compiled to one regular expression. page-routes.test.ts checks that every
 * route's paths get the label `matchRoutes` gives them.
 */
interface Branch {
  pattern: string;
  test: RegExp;
  score: number;
}

const PARAM = /^:[\w-]+$/;
const OPTIONAL = /^(:?[\w-]+)\?$/;

function score(pattern: string, index: boolean): number {
  const segments = pattern.split("/");
  let total = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    total += PARAM.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return total;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(pattern: string, caseSensitive: boolean): RegExp {
  let source = "";
  for (const segment of pattern.split("/").filter(Boolean)) {
    const optional = OPTIONAL.exec(segment)?.[1];
    const part = optional ?? segment;
    const matcher = part === "*" ? "(?:/.*)?" : PARAM.test(part) ? "/[^/]+" : `/${escape(part)}`;
    source += part === "*" ? matcher : optional ? `(?:${matcher})?` : matcher;
  }
  return new RegExp(`^${source}/*$`, caseSensitive ? "" : "i");
}

export function pageRouteLabels(build: Pick<ServerBuild, "routes">): (url: string) => string {
  const manifest = Object.values(build.routes).filter((route) => route !== undefined);
  const branches: Branch[] = [];
  const visit = (parentId: string | undefined, parentPath: string) => {
    for (const route of manifest.filter((r) => r.parentId === parentId)) {
      const joined = [parentPath, route.path ?? ""].filter(Boolean).join("/");
      const pattern = `/${joined}`.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
      // Children come first: React Router lists a route's children's branches before its own.
      if (!route.index) visit(route.id, joined);
      // A layout without a path of its own matches nothing by itself.
      if (route.path === undefined && !route.index) continue;
      branches.push({
        pattern,
        test: compile(pattern, route.caseSensitive === true),
        score: score(pattern, route.index === true),
      });
    }
  };
  visit(undefined, "");
  // Array.prototype.sort is stable: equal scores keep the routes' order.
  branches.sort((a, b) => b.score - a.score);

  return (url) => {
    let pathname = url.split("?", 1)[0]!;
    if (pathname === "/_root.data") pathname = "/";
    else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length);
    return branches.find((branch) => branch.test.test(pathname))?.pattern ?? "(no page)";
  };
}
