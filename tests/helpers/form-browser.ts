import { expect } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { TestClient } from "./session.ts";

// Kit forms posted without JavaScript (docs/decisions/0079): a browser that sends form bodies
// with the `_csrf` field, and a reader of a page's forms. Shared by the page-form tests.

/** The attributes of every <form> of a page, and of the hidden _csrf inputs inside each. */
export function forms(html: string) {
  return [...html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attributes, inner]) => {
    const attribute = (name: string) =>
      new RegExp(`\\s${name}="([^"]*)"`).exec(attributes!)?.[1] ?? null;
    return {
      method: attribute("method"),
      action: attribute("action"),
      hidden: attribute("hidden") !== null,
      csrf:
        /name="_csrf"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="_csrf"/
          .exec(inner!)
          ?.slice(1)
          .find(Boolean) ?? null,
    };
  });
}

/** A browser without JavaScript: it keeps cookies but sends no X-XSRF-TOKEN header. */
export class FormBrowser extends TestClient {
  /** Opens a page first, as a visitor would; a page with a form sets the XSRF cookie. */
  async open(url: string) {
    const response = await this.get(url);
    expect(response.statusCode).toBe(200);
    return response;
  }

  /** Pairs post a name more than once, as a multiple select does. */
  postForm(url: string, fields: Record<string, string> | [string, string][]) {
    return this.request({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(fields).toString(),
      xsrf: false,
    });
  }

  get xsrf() {
    return this.cookies.get(XSRF_COOKIE) ?? "";
  }
}
