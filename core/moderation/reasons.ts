/* Apart from schema.ts so that the report dialog shows them without zod (docs/decisions/0051). */

/** The reasons a member may give for a report, as stored and as the dialog lists them. */
export const REPORT_REASONS = [
  { value: "spam", label: "Spam or advertising" },
  { value: "expired", label: "Expired deal" },
  { value: "wrong price", label: "Wrong price" },
  { value: "offensive", label: "Offensive or abusive" },
  { value: "duplicate", label: "Duplicate" },
  { value: "other", label: "Something else" },
] as const;
