/**
 * Query values whose percent-decoding fails: the router keeps such a value as written, so
 * `?key=%ED%A0%80` (a lone surrogate) would name the same object as `?key=%25ED%25A0%2580`.
 * They are read from the raw URL, before the router's lenient decoding.
 */

/** The first of `names` whose raw value in `url`'s query does not percent-decode, or null. */
export function undecodableParam(url: string, names: readonly string[]): string | null {
  const q = url.indexOf("?");
  if (q < 0) return null;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (!names.includes(name) || eq < 0) continue;
    try {
      decodeURIComponent(pair.slice(eq + 1).replaceAll("+", " "));
    } catch {
      return name;
    }
  }
  return null;
}
