import { useRevalidator } from "react-router";
import { ReputationLevelsBody } from "../../../core/people/reputation/schema.ts";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { Field, FormAlert, SubmitButton } from "../Form.tsx";
import { ConsoleKitForm } from "./ConsoleKitForm.tsx";

export interface ReputationLevels {
  member_points: number;
  regular_points: number;
  trusted_points: number;
}

/**
 * The Settings page's reputation levels (record 0088): the points at which Member, Regular and
 * Trusted begin, each more than the one before. Its own form and call, apart from the settings.
 */
export function ReputationLevelsForm({ levels }: { levels: ReputationLevels }) {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm("reputation-levels");
  const form = useApiForm(
    ReputationLevelsBody,
    (values) => apiCall("/admin/reputation_levels", values),
    async (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" });
      await revalidator.revalidate();
    },
    {
      initial: {
        member_points: String(levels.member_points),
        regular_points: String(levels.regular_points),
        trusted_points: String(levels.trusted_points),
      },
      posted,
      idPrefix: "levels",
    },
  );
  const number = { type: "number", inputMode: "numeric", min: 1, step: 1 } as const;
  return (
    <ConsoleKitForm
      form={form}
      intent="reputation-levels"
      className="form"
      aria-label="Reputation levels"
    >
      <fieldset className="console-section">
        <legend>Reputation levels</legend>
        <p className="console-note">
          Members earn points from the heat their deals reach, deals that go hot and coupons others
          say work; a post a moderator removes costs points. Below Member, a member is a Newcomer.
          Every member&apos;s level follows a change at once.
        </p>
        <Field {...form.bind("member_points")} {...number} label="Member from (points)" />
        <Field {...form.bind("regular_points")} {...number} label="Regular from (points)" />
        <Field {...form.bind("trusted_points")} {...number} label="Trusted from (points)" />
      </fieldset>
      <FormAlert message={form.message} />
      <SubmitButton busy={form.busy}>Save levels</SubmitButton>
    </ConsoleKitForm>
  );
}
