import type { ReactNode } from "react";
import { heatOf, type Heat } from "../../core/posts/temperature.ts";
import { THERMOMETER_ICON } from "./icons.tsx";

const HEAT_WORDS: Record<Heat, string> = {
  cold: "cold",
  mild: "",
  warm: "warm",
  hot: "hot",
};

/**
 * "120°", and for screen readers "Temperature 120 degrees, hot". Cards pass no icon: their
 * stylesheet draws the thermometer (app/styles/mask-icons.css).
 */
export function TemperatureBadge({
  degrees,
  id,
  icon = THERMOMETER_ICON,
}: {
  degrees: number;
  id?: string;
  icon?: ReactNode;
}) {
  const heat = heatOf(degrees);
  const word = HEAT_WORDS[heat];
  // One element: its name is what screen readers say, its text (and icon) what the eye reads.
  // Every deal card repeats it, so a card is lighter without the two spans it took.
  return (
    <span
      id={id}
      className={`temp-badge temp-${heat}`}
      role="img"
      aria-label={`Temperature ${degrees} degrees${word ? `, ${word}` : ""}`}
    >
      {icon}
      {`${degrees}°`}
    </span>
  );
}
