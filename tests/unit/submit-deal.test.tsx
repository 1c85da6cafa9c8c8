// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SUBMIT_MESSAGES } from "../../core/constants.ts";
import { DEAL_MESSAGES, IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import { SubmitDealForm } from "../../app/components/SubmitDealForm.tsx";
import { Tabs } from "../../app/components/Tabs.tsx";
import { uploadWithProgress } from "../../app/lib/upload.ts";

/** A stand-in for XMLHttpRequest that records what is sent and answers what the test says. */
class FakeXhr {
  static sent: { url: string; headers: Record<string, string>; body: FormData }[] = [];
  static answer = { status: 200, body: {} as unknown };
  upload = new EventTarget();
  private listeners = new EventTarget();
  private url = "";
  private headers: Record<string, string> = {};
  status = 0;
  responseText = "";
  withCredentials = false;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: EventListener) {
    this.listeners.addEventListener(type, listener);
  }
  send(body: FormData) {
    FakeXhr.sent.push({ url: this.url, headers: this.headers, body });
    const progress = (loaded: number) =>
      this.upload.dispatchEvent(
        Object.assign(new Event("progress"), { lengthComputable: true, loaded, total: 200 }),
      );
    queueMicrotask(() => {
      progress(50);
      progress(200);
      this.status = FakeXhr.answer.status;
      this.responseText = JSON.stringify(FakeXhr.answer.body);
      this.listeners.dispatchEvent(new Event("load"));
    });
  }
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  document.cookie = "XSRF-TOKEN=cookie-token-1234567890";
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("uploadWithProgress", () => {
  it("sends the XSRF header from the cookie and reports progress", async () => {
    FakeXhr.answer = {
      status: 422,
      body: { status: false, errors: { title: "Title is required." } },
    };
    const progress: number[] = [];
    const result = await uploadWithProgress("/save_deal", new FormData(), (p) => progress.push(p));
    expect(FakeXhr.sent[0]!.url).toBe("/api/save_deal");
    expect(FakeXhr.sent[0]!.headers["x-xsrf-token"]).toBe("cookie-token-1234567890");
    expect(progress).toEqual([25, 100, 100]);
    expect(result).toEqual({
      ok: false,
      status: 422,
      data: { status: false, errors: { title: "Title is required." } },
    });
  });
});

function TabsHarness() {
  const [selected, setSelected] = useState<"deal" | "discussion">("deal");
  return (
    <Tabs
      label="What to submit"
      selected={selected}
      onSelect={setSelected}
      tabs={[
        { key: "deal", label: "Deal", panel: <p>Deal form</p> },
        { key: "discussion", label: "Discussion", panel: <p>Discussion form</p> },
      ]}
    />
  );
}

describe("Tabs", () => {
  it("shows Deal first, switches on click and with the arrow, Home and End keys", () => {
    render(<TabsHarness />);
    const deal = screen.getByRole("tab", { name: "Deal" });
    const discussion = screen.getByRole("tab", { name: "Discussion" });
    expect(deal.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tabpanel", { name: "Deal" }).textContent).toBe("Deal form");
    expect(screen.queryByRole("tabpanel", { name: "Discussion" })).toBeNull();
    expect(discussion.tabIndex).toBe(-1);

    fireEvent.click(discussion);
    expect(discussion.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tabpanel", { name: "Discussion" }).textContent).toBe(
      "Discussion form",
    );

    fireEvent.keyDown(discussion, { key: "ArrowRight" });
    expect(deal.getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(deal);
    fireEvent.keyDown(deal, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(discussion);
    fireEvent.keyDown(discussion, { key: "Home" });
    expect(deal.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(deal, { key: "End" });
    expect(discussion.getAttribute("aria-selected")).toBe("true");
  });
});

const choices = {
  dealCategories: [{ id: 1, title: "Hot Deals" }],
  stores: [{ id: 7, title: "Target" }],
  categories: [{ id: 3, title: "Art Supplies" }],
};

/** In a data router, as on its page: the form is a React Router <Form> (docs/decisions/0079). */
function renderDealForm() {
  const Stub = createRoutesStub([
    { path: "/submitdeal", Component: () => <SubmitDealForm userId={42} {...choices} /> },
  ]);
  return render(<Stub initialEntries={["/submitdeal"]} />);
}

describe("SubmitDealForm", () => {
  it("shows the shared schema's messages and focuses the first field", () => {
    renderDealForm();
    fireEvent.click(screen.getByRole("button", { name: "Submit Deal" }));
    const category = screen.getByLabelText(/Deal category/);
    expect(document.activeElement).toBe(category);
    expect(category.getAttribute("aria-invalid")).toBe("true");
    for (const message of [
      DEAL_MESSAGES.dealCategory,
      DEAL_MESSAGES.store,
      DEAL_MESSAGES.category,
      DEAL_MESSAGES.title,
      DEAL_MESSAGES.description,
    ]) {
      expect(screen.getByText(message)).toBeTruthy();
    }
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it("refuses a chosen file that is not an image before sending anything", () => {
    renderDealForm();
    const input = screen.getByLabelText(/Upload an image/) as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(["hello"], "notes.txt", { type: "text/plain" })] },
    });
    expect(screen.getByText(IMAGE_MESSAGES.notImage)).toBeTruthy();
  });

  it("sends the form, shows the message, then clears and resets after 3 s", async () => {
    FakeXhr.answer = {
      status: 200,
      body: {
        status: "true",
        message: SUBMIT_MESSAGES.dealSubmitted,
        response: { url: "/post/abc/crayons", title: "Crayons" },
      },
    };
    renderDealForm();
    fireEvent.change(screen.getByLabelText(/Deal category/), { target: { value: "1" } });
    fireEvent.change(screen.getByLabelText(/^Store/), { target: { value: "7" } });
    fireEvent.change(screen.getByLabelText(/^Category/), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: "Crayons" } });
    fireEvent.change(screen.getByLabelText(/Coupon code/), { target: { value: "SAVE10" } });
    // The plain textarea stands in until the editor's chunk has loaded.
    const description = document.querySelector(
      "textarea#deal-deal_description",
    ) as HTMLTextAreaElement;
    fireEvent.change(description, { target: { value: "Great <b>price</b>\n\nSecond" } });

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Submit Deal" }));
    });
    const sent = FakeXhr.sent[0]!;
    expect(sent.url).toBe("/api/save_deal");
    expect(
      Object.fromEntries([...sent.body.entries()].filter(([, v]) => typeof v === "string")),
    ).toMatchObject({
      user_id: "42",
      type: "d",
      deal_category: "1",
      store_id: "7",
      category_id: "3",
      title: "Crayons",
      coupon_code: "SAVE10",
      deal_description: "<p>Great &lt;b&gt;price&lt;/b&gt;</p><p>Second</p>",
    });
    const status = screen
      .getAllByRole("status")
      .find((element) => element.classList.contains("submit-notice"))!;
    expect(within(status).getByText(SUBMIT_MESSAGES.dealSubmitted, { exact: false })).toBeTruthy();
    expect(window.scrollTo).toHaveBeenCalled();
    expect(
      (screen.getByRole("button", { name: "Submit Deal" }) as HTMLButtonElement).disabled,
    ).toBe(true);

    await act(async () => {
      vi.advanceTimersByTime(3000);
    });
    expect(status.textContent).toBe("");
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText(/Deal category/) as HTMLSelectElement).value).toBe("");
  });

  it("points a duplicate to the existing deal", async () => {
    FakeXhr.answer = {
      status: 409,
      body: {
        status: false,
        message: SUBMIT_MESSAGES.duplicateDeal,
        duplicate: {
          unique_id: "abc",
          slug: "crayons",
          title: "Crayons",
          url: "/post/abc/crayons",
        },
      },
    };
    renderDealForm();
    fireEvent.change(screen.getByLabelText(/Deal category/), { target: { value: "1" } });
    fireEvent.change(screen.getByLabelText(/^Store/), { target: { value: "7" } });
    fireEvent.change(screen.getByLabelText(/^Category/), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: "Crayons" } });
    fireEvent.change(document.querySelector("textarea#deal-deal_description")!, {
      target: { value: "Text" },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Submit Deal" }));
    });
    expect(screen.getByText(SUBMIT_MESSAGES.duplicateDeal, { exact: false })).toBeTruthy();
    expect(screen.getByRole("link", { name: "See “Crayons”." }).getAttribute("href")).toBe(
      "/post/abc/crayons",
    );
  });
});
