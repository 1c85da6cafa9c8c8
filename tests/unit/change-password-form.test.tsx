// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChangePasswordForm } from "../../app/components/ChangePasswordForm.tsx";

/** The form on its page: a kit form is a React Router <Form>, which needs a data router. */
function renderForm() {
  const router = createMemoryRouter(
    [
      {
        path: "/user/profile-edit",
        element: <ChangePasswordForm userId={7} csrfToken="form-token" />,
      },
    ],
    { initialEntries: ["/user/profile-edit"] },
  );
  return render(<RouterProvider router={router} />);
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("ChangePasswordForm", () => {
  it("posts to its page with the XSRF token and its intent before hydration", () => {
    const { container } = renderForm();
    const form = container.querySelector("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/user/profile-edit");
    const hidden = Object.fromEntries(
      [...form.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map((input) => [
        input.name,
        input.value,
      ]),
    );
    expect(hidden).toEqual({ _csrf: "form-token", intent: "password" });
  });

  it("shows the spec's messages without calling the server", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderForm();
    fireEvent.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Old Password is required !")).toBeTruthy();
    expect(screen.getByText("New Password is required !")).toBeTruthy();
    expect(screen.getByText("Confirm Password is required !")).toBeTruthy();
    expect(document.activeElement?.id).toBe("old_password");

    fill("Old Password", "Old#Pass1");
    fill("New Password", "New#Chalk77");
    fill("Confirm Password", "New#Chalk78");
    fireEvent.click(screen.getByRole("button", { name: "Change Password" }));
    expect(
      await screen.findByText((text) => text === "New and Confirm Password should be same."),
    ).toBeTruthy();
    expect(screen.getByLabelText("Confirm Password").getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts with the XSRF header and shows the answer for 5 seconds", async () => {
    document.cookie = "XSRF-TOKEN=abc123abc123abc123";
    const fetchMock = vi.fn(async () =>
      Response.json({ status: "true", message: "Your password has been changed." }),
    );
    vi.stubGlobal("fetch", fetchMock);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderForm();
    fill("Old Password", "Old#Pass1");
    fill("New Password", "New#Chalk77");
    fill("Confirm Password", "New#Chalk77");
    fireEvent.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Your password has been changed.")).toBeTruthy();

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/change_password");
    expect((init.headers as Record<string, string>)["x-xsrf-token"]).toBe("abc123abc123abc123");
    expect(JSON.parse(String(init.body))).toEqual({
      old_password: "Old#Pass1",
      new_password: "New#Chalk77",
      new_password_confirmation: "New#Chalk77",
      user_id: 7,
    });
    expect((screen.getByLabelText("Old Password") as HTMLInputElement).value).toBe("");

    await act(async () => vi.advanceTimersByTime(4900));
    expect(screen.queryByText("Your password has been changed.")).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(200));
    expect(screen.queryByText("Your password has been changed.")).toBeNull();
  });

  it("shows the server's field message for a wrong old password", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json(
          {
            status: false,
            message: "Your old password is not correct.",
            errors: { old_password: "Your old password is not correct." },
          },
          { status: 422 },
        ),
      ),
    );
    renderForm();
    fill("Old Password", "Wrong#Pass1");
    fill("New Password", "New#Chalk77");
    fill("Confirm Password", "New#Chalk77");
    fireEvent.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findAllByText("Your old password is not correct.")).toHaveLength(2);
  });
});
