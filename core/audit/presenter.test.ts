import { describe, expect, it } from "vitest";
import { containsPattern, startsWithPattern } from "../like-pattern.ts";
import { auditChanges } from "./presenter.ts";

describe("auditChanges: an entry's before and after as one line per field", () => {
  it("pairs each field's old and new value, in the order recorded", () => {
    expect(auditChanges({ title: "Old", price: 3 }, { title: "New", price: 2 })).toEqual([
      { field: "title", before: "Old", after: "New" },
      { field: "price", before: 3, after: 2 },
    ]);
  });

  it("shows a side that has no value as null (deletes have no after, creations no before)", () => {
    expect(auditChanges({ title: "Gone", comments: 2 }, null)).toEqual([
      { field: "title", before: "Gone", after: null },
      { field: "comments", before: 2, after: null },
    ]);
    expect(auditChanges(null, { status: "hidden" })).toEqual([
      { field: "status", before: null, after: "hidden" },
    ]);
    expect(auditChanges(null, null)).toEqual([]);
    expect(auditChanges("not an object", [1])).toEqual([]);
  });
});

describe("LIKE patterns of typed text", () => {
  it("take %, _ and \\ literally", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(startsWithPattern("post.")).toBe("post.%");
  });
});
