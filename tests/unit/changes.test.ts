import { describe, expect, it } from "vitest";
import { createChangeFeed, type ChangeOrigin, type ChangeTopic } from "../../core/cache/changes.ts";

describe("the change feed", () => {
  it("calls the listeners of a topic, with the origin, until they unsubscribe", () => {
    const errors: unknown[] = [];
    const feed = createChangeFeed({ error: (e) => void errors.push(e) });
    const heard: [string, ChangeTopic, ChangeOrigin][] = [];
    const offPosts = feed.on("posts", (topic, origin) => heard.push(["posts", topic, origin]));
    feed.on(["settings", "catalog"], (topic, origin) => heard.push(["site", topic, origin]));

    feed.emit("posts");
    feed.emit("catalog", "remote");
    feed.emit("comments");
    offPosts();
    feed.emit("posts");

    expect(heard).toEqual([
      ["posts", "posts", "local"],
      ["site", "catalog", "remote"],
    ]);
    expect(errors).toEqual([]);
  });

  it("keeps calling the other listeners when one throws, and logs it", () => {
    const errors: unknown[] = [];
    const feed = createChangeFeed({ error: (e) => void errors.push(e) });
    const heard: string[] = [];
    feed.on("users", () => {
      throw new Error("broken cache");
    });
    feed.on("users", () => heard.push("second"));
    expect(() => feed.emit("users")).not.toThrow();
    expect(heard).toEqual(["second"]);
    expect(errors).toHaveLength(1);
  });
});
