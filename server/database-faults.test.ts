import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesForPages } from "./database-faults.ts";

const silent = { warn: () => {} };
const lost = () => Object.assign(new Error("terminating connection"), { code: "57P01" });

/** What a loader sees when it calls a service through servicesForPages. */
async function thrownBy(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("servicesForPages", () => {
  const services = {
    deals: {
      list: async () => [1, 2],
      count: () => 2,
      broken: async () => {
        throw lost();
      },
      bug: async () => {
        throw new TypeError("a bug");
      },
    },
    accounts: { oauth: { begin: async () => Promise.reject(lost()) } },
  };
  const pages = servicesForPages(services, silent);

  it("passes answers through unchanged", async () => {
    expect(await pages.deals.list()).toEqual([1, 2]);
    expect(pages.deals.count()).toBe(2);
  });

  it("turns a database outage into a 503 response, at any depth", async () => {
    for (const call of [() => pages.deals.broken(), () => pages.accounts.oauth.begin()]) {
      const thrown = await thrownBy(call);
      // React Router makes a thrown data() an ErrorResponse with its status.
      expect(thrown).toMatchObject({ type: "DataWithResponseInit", init: { status: 503 } });
    }
  });

  it("leaves other errors as they are", async () => {
    const thrown = await thrownBy(() => pages.deals.bug());
    expect(thrown).toBeInstanceOf(TypeError);
    expect(isRouteErrorResponse(thrown)).toBe(false);
  });
});
