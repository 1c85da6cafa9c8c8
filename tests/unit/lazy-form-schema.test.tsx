// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ApiResult } from "../../app/lib/api.ts";
import { useApiForm, type FormSchema } from "../../app/lib/api-form.ts";
import { loadChunk } from "../../app/lib/chunks.tsx";
import { postFormSchemas } from "../../app/lib/lazy-schemas.ts";

// docs/decisions/0051: a form's checks may load on use (the deal page's comment box and report
// dialog); the form kit waits for them, and sends the form unchecked when they cannot arrive.

const NameSchema = z.object({ name: z.string().trim().min(1, "Please enter a name.") });

function NameForm({
  schema,
  call,
}: {
  schema: FormSchema;
  call: (values: { name: string }) => Promise<ApiResult<unknown>>;
}) {
  const form = useApiForm(
    schema,
    call,
    (_result, f) => f.show({ text: "Sent.", tone: "success" }),
    {
      initial: { name: "" },
    },
  );
  const name = form.bind("name");
  return (
    <form ref={form.ref} onSubmit={form.submit} noValidate>
      <label htmlFor={name.id}>Name</label>
      <input
        id={name.id}
        value={name.value}
        aria-invalid={name.error ? true : undefined}
        onChange={(event) => name.onChange(event.target.value)}
      />
      {name.error && <p>{name.error}</p>}
      {form.message && <p>{form.message.text}</p>}
      <button type="submit" disabled={form.busy}>
        Send
      </button>
    </form>
  );
}

const sent = async (): Promise<ApiResult<unknown>> => ({ ok: true, status: 200, data: {} });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("a form whose checks load on use", () => {
  it("checks with the loaded schema before calling the server", async () => {
    const call = vi.fn(sent);
    const load = vi.fn(async () => NameSchema);
    render(<NameForm schema={load} call={call} />);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Please enter a name.")).toBeTruthy();
    expect(call).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Ada" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Sent.")).toBeTruthy();
    expect(call).toHaveBeenCalledWith({ name: "Ada" });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("sends the form unchecked, and reports the chunk, when the checks cannot arrive", async () => {
    const reports = vi.spyOn(console, "error").mockImplementation(() => {});
    const call = vi.fn(sent);
    const failing = () =>
      loadChunk("name-checks", () => Promise.reject(new TypeError("Failed to fetch")));
    render(<NameForm schema={failing} call={call} />);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Sent.")).toBeTruthy();
    expect(call).toHaveBeenCalledWith({ name: "" });
    expect(reports).toHaveBeenCalledWith("Loading chunk name-checks failed");
  });

  it("loads the deal page's comment and report checks with the API's messages", async () => {
    const { CommentTextSchema, ReportFormSchema } = await postFormSchemas();
    expect(CommentTextSchema.safeParse({ comment_text: " " }).error?.issues[0]?.message).toBe(
      "Please enter a comment before posting.",
    );
    expect(ReportFormSchema.safeParse({ reason: "", note: "" }).error?.issues[0]?.message).toBe(
      "Please choose a reason for your report.",
    );
    expect(ReportFormSchema.safeParse({ reason: "spam", note: "" }).success).toBe(true);
  });
});
