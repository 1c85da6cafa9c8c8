import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { apiTable } from "../../core/api-table.ts";
import { MULTI_LINE, SINGLE_LINE } from "../../core/validation.ts";
import { apiRoutes, type ApiRoute } from "../../server/api/route.ts";
import { API_CALLS, send, startApiWorld, type ApiWorld } from "../helpers/api-calls.ts";

/**
 * Every registered /api call, made with a valid request against the demo data, answers what its
 * route declares (core/<feature>/responses.ts): the spec's field names, their types, nothing more.
 */

let world: ApiWorld;
beforeAll(async () => {
  world = await startApiWorld();
});
afterAll(async () => {
  await world?.close();
});

const key = (route: ApiRoute) => `${route.method} ${route.url}`;

describe("the API contract", () => {
  it("has a response schema and a valid request for every registered call, and no stale one", () => {
    expect(apiRoutes.length).toBeGreaterThan(30);
    const registered = apiRoutes.map(key).sort();
    for (const route of apiRoutes) {
      expect(route.response, `${key(route)} declares no response schema`).toBeDefined();
    }
    expect(registered.filter((call) => !API_CALLS[call])).toEqual([]);
    expect(Object.keys(API_CALLS).filter((call) => !registered.includes(call))).toEqual([]);
  });

  it("lists every registered call in the browser's table with the same schemas, and no other", () => {
    const table = apiTable as Record<string, Record<string, { body?: unknown; response: unknown }>>;
    const listed = Object.entries(table)
      .flatMap(([url, methods]) => Object.keys(methods).map((method) => `${method} ${url}`))
      .sort();
    expect(listed).toEqual(apiRoutes.map(key).sort());
    const differing = apiRoutes
      .filter((route) => {
        const entry = table[route.url]?.[route.method];
        return entry?.response !== route.response || entry?.body !== route.body;
      })
      .map(key);
    expect(differing).toEqual([]);
  });

  it("answers every call as its response schema says", async () => {
    const mismatches: string[] = [];
    for (const route of apiRoutes) {
      const call = key(route);
      const request = await API_CALLS[call]!(world);
      const response = await send(route.method, `/api${route.url}`, request);
      if (response.statusCode !== (route.successStatus ?? 200)) {
        mismatches.push(`${call}: HTTP ${response.statusCode} ${response.body.slice(0, 300)}`);
        continue;
      }
      const checked = route.response.safeParse(response.json());
      if (!checked.success) {
        const issues = checked.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join(".")}: ${issue.message}`);
        mismatches.push(`${call}: ${issues.join("; ")}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("keeps the spec's field names in the declared schemas", async () => {
    const docs = JSON.stringify(
      (await world.t.app.inject({ method: "GET", url: "/api/docs" })).json(),
    );
    for (const name of [
      "froum_list",
      "recent_arr",
      "deals_arr",
      "deal_data_pagination",
      "selected_data",
      "featured_data_arr",
      "trending_deals_arr",
      "recent_deals_pagination",
      "teachers_wishlist",
      "comments_replies",
      "cms_page",
      "client_secret",
    ]) {
      expect(docs, name).toContain(`"${name}"`);
    }
  });

  it("shows each call's body, answer and failure shape at /api/docs", async () => {
    const docs = (await world.t.app.inject({ method: "GET", url: "/api/docs" })).json();
    const signin = docs.paths["/api/signin"].post;
    expect(signin.responses["200"].content["application/json"].schema.properties).toHaveProperty(
      "response",
    );
    // Each call's failure shape, or the spec's one "No Data Found" answer, which any call may give.
    const [signinFailure, noDataFound] =
      signin.responses["4XX"].content["application/json"].schema.anyOf;
    expect(signinFailure.properties.status).toMatchObject({
      anyOf: expect.arrayContaining([{ type: "string", const: "False" }]),
    });
    expect(noDataFound.properties).toMatchObject({
      status: { type: "string", const: "false" },
      message: { type: "string", const: "No Data Found" },
    });
    const details = docs.paths["/api/product_details"].post.responses["4XX"];
    expect(details.content["application/json"].schema.anyOf[1]).toEqual(noDataFound);
    expect(docs.paths["/api/signup"].post.responses).toHaveProperty("201");
    expect(docs.paths["/api/forums"].get.responses["200"].content).toBeTruthy();
    expect(docs.paths["/api/save_deal"].post.requestBody.content).toHaveProperty(
      "multipart/form-data",
    );
  });
});

describe("the shared text step (docs/decisions/0021-text-input-hardening.md)", () => {
  it("guards every string of every call's body", () => {
    const unguarded: string[] = [];
    for (const route of apiRoutes) {
      if (route.body) unguardedStrings(route.body, key(route), false, unguarded);
    }
    expect(unguarded).toEqual([]);
  });
});

type Def = {
  type: string;
  checks?: { _zod: { def: { format?: string; pattern?: RegExp } } }[];
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  out?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function hasTextStep(schema: z.ZodType): boolean {
  return (defOf(schema).checks ?? []).some((check) => {
    const pattern = check._zod.def.pattern;
    return pattern?.source === SINGLE_LINE.source || pattern?.source === MULTI_LINE.source;
  });
}

/** Whether the schema's value has passed a guarded string (downstream of a pipe it stays guarded). */
function guards(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === "string") return hasTextStep(schema);
  if (def.type === "pipe") return guards(def.in!) || guards(def.out!);
  if (def.innerType) return guards(def.innerType);
  return false;
}

/** Collects the strings of a schema that no text step guards. */
function unguardedStrings(schema: z.ZodType, path: string, guarded: boolean, found: string[]) {
  const def = defOf(schema);
  const visit = (child: z.ZodType, at: string, childGuarded = guarded) =>
    unguardedStrings(child, at, childGuarded, found);
  switch (def.type) {
    case "string":
      if (!guarded && !hasTextStep(schema)) found.push(path);
      return;
    case "object":
      for (const [name, child] of Object.entries(def.shape!)) visit(child, `${path}.${name}`);
      return;
    case "pipe":
      visit(def.in!, path);
      visit(def.out!, path, guarded || guards(def.in!));
      return;
    case "union":
      def.options!.forEach((option, i) => visit(option, `${path}|${i}`));
      return;
    case "array":
      visit(def.element!, `${path}[]`);
      return;
    case "intersection":
      visit(def.left!, path);
      visit(def.right!, path);
      return;
    case "record":
      visit(def.valueType!, `${path}{}`);
      return;
    default:
      if (def.innerType) visit(def.innerType, path);
  }
}
