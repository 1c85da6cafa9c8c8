/**
 * Prometheus's text exposition format, read strictly: every line is a comment (# HELP, # TYPE) or
 * a sample, and each sample's family was typed first. A line that is neither fails the read.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Family name → its TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
const SUFFIXES = ["_bucket", "_sum", "_count", "_total", "_created"];

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line === "" || line.startsWith("# HELP ")) continue;
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(
      line,
    );
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`line ${index + 1} is not Prometheus text: ${line}`);
    const [, name, labelText = "", valueText] = sample;
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const label = LABEL.exec(labelText);
      if (!label) throw new Error(`line ${index + 1} has unreadable labels: ${line}`);
      labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    // Prometheus reads these words in any case (Go's ParseFloat); prom-client writes "Nan".
    const word = valueText!.toLowerCase();
    const value = /^[+-]?inf$/.test(word)
      ? (word.startsWith("-") ? -1 : 1) * Infinity
      : word === "nan"
        ? NaN
        : Number(valueText);
    if (Number.isNaN(value) && word !== "nan") {
      throw new Error(`line ${index + 1} has no number: ${line}`);
    }
    const family = types.has(name!)
      ? name!
      : SUFFIXES.map((suffix) => name!.slice(0, -suffix.length)).find(
          (base, i) => name!.endsWith(SUFFIXES[i]!) && types.has(base),
        );
    if (!family) throw new Error(`line ${index + 1}: ${name} has no # TYPE line before it`);
    samples.push({ name: name!, labels, value });
  }
  return { types, samples };
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there are none). */
export function sampleValue(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number {
  return exposition.samples
    .filter(
      (s) =>
        s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
    )
    .reduce((sum, s) => sum + s.value, 0);
}
