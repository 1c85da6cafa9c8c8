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
  return (
    <span id={id} className={`temp-badge temp-${heat}`}>
      {icon}
      <span className="temp-degrees" aria-hidden="true">
        {`${degrees}°`}
      </span>
      <span className="visually-hidden">{`Temperature ${degrees} degrees${word ? `, ${word}` : ""}`}</span>
    </span>
  );
}
