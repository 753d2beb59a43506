/**
 * UTM parameters of a link: `utm_source`, `utm_medium`, `utm_campaign`, `utm_term` and
 * `utm_content` set on the target's query. The target's other parameters stay as they are (in
 * order); a UTM parameter the target already has takes the link's value. Values are encoded by
 * `URLSearchParams`.
 */

/** The UTM fields and the query parameter each one sets. */
export const UTM_FIELDS = ["source", "medium", "campaign", "term", "content"] as const;

/** A UTM field. */
export type UtmField = typeof UTM_FIELDS[number];

/** The UTM parameters of a link (at least one). */
export type Utm = Partial<Record<UtmField, string>>;

/** Longest value of one UTM field, in characters. */
export const MAX_UTM_VALUE = 200;

/** The message of an invalid `utm`. */
export const UTM_MESSAGE = `utm must be an object with at least one of ${
  UTM_FIELDS.join(", ")
}, each a string of 1 to ${MAX_UTM_VALUE} characters`;

/** The name of a raw `name=value` pair of a query, decoded (null when it does not decode). */
function pairName(pair: string): string | null {
  const raw = pair.split("=", 1)[0].replaceAll("+", " ");
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * Rewrites the query of `url` as raw text (the other parameters keep their exact bytes and
 * order): pairs for which `drop` is true go, `add` is appended, encoded.
 */
function rewriteQuery(url: string, drop: (name: string, pair: string) => boolean, add: string[]) {
  const target = new URL(url);
  const kept = target.search.slice(1).split("&").filter((pair) => {
    if (pair === "") return false;
    const name = pairName(pair);
    return name === null || !drop(name, pair);
  });
  const query = [...kept, ...add].join("&");
  target.search = query ? `?${query}` : "";
  return target.href;
}

function encodedPair(field: UtmField, value: string): string {
  return `utm_${field}=${encodeURIComponent(value)}`;
}

/** `url` with the UTM parameters set on its query (one value each, the link's). */
export function applyUtm(url: string, utm: Utm): string {
  const set = UTM_FIELDS.filter((f) => utm[f] !== undefined);
  const names = new Set(set.map((f) => `utm_${f}`));
  return rewriteQuery(url, (name) => names.has(name), set.map((f) => encodedPair(f, utm[f]!)));
}

/** `url` without the UTM pairs `utm` had set (before a link's UTM changes). */
export function removeUtm(url: string, utm: Utm): string {
  const pairs = new Set(
    UTM_FIELDS.filter((f) => utm[f] !== undefined).map((f) => encodedPair(f, utm[f]!)),
  );
  return rewriteQuery(url, (_name, pair) => pairs.has(pair), []);
}

/** The stored form (JSON text) of `utm`, or null. */
export function utmColumn(utm: Utm | null | undefined): string | null {
  return utm ? JSON.stringify(utm) : null;
}

/** The UTM parameters from their stored form, or null. */
export function utmOf(column: unknown): Utm | null {
  if (typeof column !== "string") return null;
  try {
    return JSON.parse(column) as Utm;
  } catch {
    return null;
  }
}
