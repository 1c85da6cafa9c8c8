// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ConfirmDialog } from "../../app/components/ConfirmDialog.tsx";

beforeAll(() => {
  // jsdom has <dialog> but not its modal methods; these follow the standard's effect on `open`.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});

afterEach(cleanup);

describe("ConfirmDialog", () => {
  it("opens as a labelled modal dialog and answers Yes and No", () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const { rerender } = render(
      <ConfirmDialog
        open={false}
        title="Are you want to delete account ?"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    const dialog = document.querySelector("dialog")!;
    expect(dialog.open).toBe(false);
    rerender(
      <ConfirmDialog
        open
        title="Are you want to delete account ?"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(dialog.open).toBe(true);
    expect(screen.getByRole("dialog", { name: "Are you want to delete account ?" })).toBe(dialog);
    fireEvent.click(screen.getByRole("button", { name: "No" }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Yes" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    rerender(
      <ConfirmDialog
        open={false}
        title="Are you want to delete account ?"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(dialog.open).toBe(false);
  });

  it("treats Escape (the dialog's cancel event) as No, unless a call is running", () => {
    const onCancel = vi.fn();
    const { rerender } = render(
      <ConfirmDialog open title="Sure?" onConfirm={() => {}} onCancel={onCancel} />,
    );
    const dialog = document.querySelector("dialog")!;
    const escape = new Event("cancel", { cancelable: true });
    dialog.dispatchEvent(escape);
    expect(escape.defaultPrevented).toBe(true);
    expect(onCancel).toHaveBeenCalledTimes(1);

    rerender(<ConfirmDialog open busy title="Sure?" onConfirm={() => {}} onCancel={onCancel} />);
    dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect((screen.getByRole("button", { name: "Loading…" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
