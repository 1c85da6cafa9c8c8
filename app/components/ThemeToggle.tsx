import { useEffect, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { themeCookie, type ThemeChoice } from "../lib/theme.ts";
import type { RootLoaderData } from "../root.tsx";
import { MONITOR_ICON, MOON_ICON, SUN_ICON } from "./icons.tsx";
import "../styles/theme.css";

type Choice = ThemeChoice | "system";

const OPTIONS = [
  { value: "light", label: "Light", icon: SUN_ICON },
  { value: "dark", label: "Dark", icon: MOON_ICON },
  { value: "system", label: "System", icon: MONITOR_ICON },
] as const satisfies readonly { value: Choice; label: string; icon: unknown }[];

/**
 * Light, dark, or the system's setting (app/lib/theme.ts): three buttons, the current one
 * pressed. The choice applies at once and is remembered in the `theme` cookie; "System" forgets
 * it, leaving no cookie behind.
 */
export function ThemeToggle() {
  const chosen = useRouteLoaderData<RootLoaderData>("root")?.theme ?? null;
  const [choice, setChoice] = useState<Choice>(chosen ?? "system");
  // The server's answer after a later navigation (another tab may have chosen meanwhile).
  useEffect(() => setChoice(chosen ?? "system"), [chosen]);

  function choose(next: Choice) {
    setChoice(next);
    const theme = next === "system" ? null : next;
    document.cookie = themeCookie(theme, window.location.protocol === "https:");
    const root = document.documentElement;
    if (theme) root.dataset.theme = theme;
    else delete root.dataset.theme;
  }

  return (
    <div className="theme-toggle" role="group" aria-labelledby="theme-toggle-label">
      <span id="theme-toggle-label" className="theme-toggle-label">
        Theme
      </span>
      {OPTIONS.map(({ value, label, icon }) => (
        <button
          key={value}
          type="button"
          className="theme-toggle-option"
          aria-pressed={choice === value}
          onClick={() => choose(value)}
        >
          {icon}
          <span>{label}</span>
        </button>
      ))}
    </div>
  );
}
