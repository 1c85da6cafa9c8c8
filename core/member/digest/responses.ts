import { z } from "zod";
import { TRUE, message } from "../../responses.ts";

const DigestSchedule = z.strictObject({
  digest_weekday: z.number().int().describe("0 Sunday … 6 Saturday"),
  digest_hour: z.number().int().describe("0–23, UTC"),
  description: z.string().describe("Friday at 09:00 UTC"),
});

export const DigestScheduleResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ schedule: DigestSchedule }),
});

export const DigestScheduleSavedResponse = z.strictObject({
  ...message,
  response: z.strictObject({ schedule: DigestSchedule }),
});
