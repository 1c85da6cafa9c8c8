import { useEffect, useRef, useState } from "react";
import { messageOf } from "./api-form.ts";
import { apiCall, type ApiPathFor } from "./api.ts";

export type ConfirmOutcome =
  { state: "loading" } | { state: "done"; message: string } | { state: "failed"; message: string };

/**
 * A mailed single-use link's page (/confirm/{code}, /user/verify-educator/confirm/{code}): the
 * browser posts the code once the page runs, never the server while rendering, so a mail scanner
 * that only fetches the link does not use the code up. Posts once, and says how it went.
 */
export function useConfirmLink(
  call: ApiPathFor<"POST">,
  body: Record<string, string>,
): ConfirmOutcome {
  const [outcome, setOutcome] = useState<ConfirmOutcome>({ state: "loading" });
  const sent = useRef(false);
  const payload = JSON.stringify(body);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    void apiCall(call, JSON.parse(payload)).then((result) =>
      setOutcome({ state: result.ok ? "done" : "failed", message: messageOf(result.data) }),
    );
  }, [call, payload]);
  return outcome;
}
