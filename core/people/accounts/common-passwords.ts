import fs from "node:fs";

let list: Set<string> | undefined;

function commonPasswords(): Set<string> {
  if (!list) {
    const text = fs.readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8");
    list = new Set(text.split("\n").filter((line) => line && !line.startsWith("#")));
  }
  return list;
}

/**
 * True when a password is one of the most common ones, compared case-insensitively, or is one of
 * them with digits and symbols only added around it ("Password1!", "!Summer2024"): the first
 * things a guesser tries, whatever the composition rule says.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const withoutTrailingSymbols = lower.replace(/[^a-z0-9]+$/, "");
  const word = lower.replace(/^[^a-z]+|[^a-z]+$/g, "");
  const known = commonPasswords();
  return (
    known.has(lower) || known.has(withoutTrailingSymbols) || (word.length >= 4 && known.has(word))
  );
}
