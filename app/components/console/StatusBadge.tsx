const TONES: Record<string, string> = {
  active: "success",
  hidden: "danger",
  removed: "danger",
  deleted: "danger",
};

/** The state of a post or comment as a badge: live in green, hidden and removed in red. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  const tone = TONES[status];
  return <span className={tone ? `console-badge ${tone}` : "console-badge"}>{label}</span>;
}
