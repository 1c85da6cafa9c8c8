import { FiThermometer } from "react-icons/fi";
import { heatOf, type Heat } from "../../core/posts/temperature.ts";
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
      <FiThermometer aria-hidden="true" />
      <span className="visually-hidden">Temperature </span>
      <span className="temp-degrees" aria-hidden="true">
        {degrees}°
      </span>
      <span className="visually-hidden">
        {degrees} degrees{word ? `, ${word}` : ""}
      </span>
    </span>
  );
}
