import type { z } from "zod";
import type { ApiRoute } from "../../server/api/route.ts";

/**
 * Which fields of a call read text, from the call's body schema: what the fuzz
 * (tests/helpers/fuzz.ts) sends lists and objects to, expecting 422 naming the field. Apart from
 * the fuzz so that tests without pages can use it (vitest.config.ts builds first for the fuzz).
 */

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  out?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The fields of an input schema (an object, possibly refined, transformed or a union of objects). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = defOf(schema);
  if (def.type === "object") return def.shape!;
  if (def.type === "pipe") return shapeOf(def.in!);
  if (def.type === "union") return Object.assign({}, ...def.options!.map(shapeOf));
  if (def.type === "intersection") return { ...shapeOf(def.left!), ...shapeOf(def.right!) };
  if (def.type === "lazy") return shapeOf(def.getter!());
  return def.innerType ? shapeOf(def.innerType) : {};
}

/**
 * Whether a field's schema reads text: it accepts a string (free text, one of a list of words, or an
 * id sent as digits) and no list or object. A preprocess step reads what its schema reads.
 */
function readsText(schema: z.ZodType): boolean {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
    case "template_literal":
      return true;
    case "enum":
      return Object.values(def.entries!).every((value) => typeof value === "string");
    case "literal":
      return def.values!.every((value) => typeof value === "string");
    case "pipe":
      return readsText(defOf(def.in!).type === "transform" ? def.out! : def.in!);
    case "union":
      return def.options!.some(readsText) && !def.options!.some(readsStructure);
    case "lazy":
      return readsText(def.getter!());
    default:
      return def.innerType ? readsText(def.innerType) : false;
  }
}

/** Whether a schema accepts a list or an object. */
function readsStructure(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (["array", "tuple", "object", "record", "map", "set", "any", "unknown"].includes(def.type)) {
    return true;
  }
  if (def.type === "pipe") {
    return readsStructure(defOf(def.in!).type === "transform" ? def.out! : def.in!);
  }
  if (def.type === "union") return def.options!.some(readsStructure);
  if (def.type === "lazy") return readsStructure(def.getter!());
  return def.innerType ? readsStructure(def.innerType) : false;
}

/**
 * The text fields of a POST call, read from its body schema, so a new call is covered as soon as
 * it is registered. A GET call's query string carries only text, so it has none to check.
 */
export function textFields(route: ApiRoute): string[] {
  if (route.method !== "POST" || !route.body) return [];
  return Object.entries(shapeOf(route.body))
    .filter(([, schema]) => readsText(schema))
    .map(([name]) => name);
}
