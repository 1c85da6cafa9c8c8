import { heatOf, type Heat } from "../../core/posts/temperature.ts";
import { THERMOMETER_ICON } from "./icons.tsx";
import "../styles/temperature.css";

const HEAT_WORDS: Record<Heat, string> = {
  cold: "cold",
  mild: "",
  warm: "warm",
  hot: "hot",
};

/** "120°", and for screen readers "Temperature 120 degrees, hot". */
export function TemperatureBadge({ degrees, id }: { degrees: number; id?: string }) {
  const heat = heatOf(degrees);
  const word = HEAT_WORDS[heat];
  return (
    <span id={id} className={`temp-badge temp-${heat}`} data-heat={heat}>
      {THERMOMETER_ICON}
      <span className="temp-degrees" aria-hidden="true">
        {`${degrees}°`}
      </span>
      <span className="visually-hidden">{`Temperature ${degrees} degrees${word ? `, ${word}` : ""}`}</span>
    </span>
  );
}
