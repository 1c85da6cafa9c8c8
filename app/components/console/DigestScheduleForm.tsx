import { useRevalidator } from "react-router";
import { DigestScheduleBody, WEEKDAY_NAMES } from "../../../core/settings/digest-schedule.ts";
import { Field, FormAlert, SubmitButton } from "../Form.tsx";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { ConsoleKitForm } from "./ConsoleKitForm.tsx";

const WEEKDAYS = WEEKDAY_NAMES.map((name, day) => ({ value: String(day), label: name }));
const HOURS = Array.from({ length: 24 }, (_, hour) => {
  const label = `${String(hour).padStart(2, "0")}:00 UTC`;
  return { value: String(hour), label };
});

/**
 * The console Settings page's weekly digest form (record 0087): the day and hour, UTC, when the
 * digest goes to members who opted in. Its own form and call (`POST /api/admin/settings/digest`,
 * intent "digest"), apart from the page's other settings.
 */
export function DigestScheduleForm({
  schedule,
}: {
  schedule: { digest_weekday: number; digest_hour: number; description: string };
}) {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm("digest");
  const form = useApiForm(
    DigestScheduleBody,
    (values) => apiCall("/admin/settings/digest", values),
    async (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" });
      await revalidator.revalidate();
    },
    {
      initial: {
        digest_weekday: String(schedule.digest_weekday),
        digest_hour: String(schedule.digest_hour),
      },
      posted,
      idPrefix: "digest",
    },
  );
  return (
    <ConsoleKitForm form={form} intent="digest" className="form" aria-label="Weekly digest">
      <fieldset className="console-section">
        <legend>Weekly digest</legend>
        <p className="console-note">
          Members who switch on “Weekly digest” in their email settings get the past week&apos;s
          hottest deals from the stores and categories they follow (or from the whole site) once a
          week, at this time, only when there is something new. Now: {schedule.description}.
        </p>
        <Field {...form.bind("digest_weekday")} label="Day" control="select" options={WEEKDAYS} />
        <Field
          {...form.bind("digest_hour")}
          label="Hour"
          control="select"
          options={HOURS}
          hint="Coordinated Universal Time (UTC)."
        />
      </fieldset>
      <FormAlert message={form.message} />
      <SubmitButton busy={form.busy}>Save digest time</SubmitButton>
    </ConsoleKitForm>
  );
}
