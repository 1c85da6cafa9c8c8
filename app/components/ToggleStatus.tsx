import type { Toggle } from "../lib/use-toggle.ts";

/** The line under a toggle button: the server's word after a press (app/lib/use-toggle.ts). */
export function ToggleStatus({
  className,
  message,
}: {
  className: string;
  message: Toggle<unknown>["message"];
}) {
  return (
    <p className={className} aria-live="polite">
      {message && (
        <span className={message.error ? "field-error" : "follow-done"}>{message.text}</span>
      )}
    </p>
  );
}
