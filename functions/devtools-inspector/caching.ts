/**
 * Cache-Control and the other caching headers, read as a browser's private cache would
 * (RFC 9111): the explicit lifetime, the validators, and one verdict in words.
 */
import type { CachingInfo } from "./schema.ts";

/** Cache-Control parsed: lowercased directive → unquoted value, or true when valueless. */
export type Directives = Record<string, string | true>;

/** Statuses a cache may store without explicit freshness (RFC 9110 §15.1). */
const HEURISTICALLY_CACHEABLE = new Set([
  200,
  203,
  204,
  206,
  300,
  301,
  308,
  404,
  405,
  410,
  414,
  501,
]);

/** Parses a Cache-Control value; a repeated directive keeps its first value. */
export function parseCacheControl(value: string | null): Directives {
  const out: Directives = {};
  if (!value) return out;
  // Split on commas outside quoted strings (a `private="set-cookie, x"` list stays whole).
  for (const part of value.match(/(?:[^,"]+|"(?:[^"\\]|\\.)*")+/g) ?? []) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (!name || name in out) continue;
    if (eq < 0) out[name] = true;
    else out[name] = part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
  }
  return out;
}

/** A non-negative integer number of seconds from a directive, else null. */
function seconds(value: string | true | undefined): number | null {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return null;
  return Math.min(Number(value), 2 ** 31);
}

const UNITS: [string, number][] = [
  ["y", 31_536_000],
  ["d", 86_400],
  ["h", 3_600],
  ["m", 60],
  ["s", 1],
];

/** Seconds in words, at most two units: `1h`, `1h 30m`, `1y`, `45s`. */
export function humanDuration(total: number): string {
  if (total <= 0) return "0s";
  const parts: string[] = [];
  let rest = Math.floor(total);
  for (const [name, size] of UNITS) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)}${name}`);
      rest %= size;
    } else if (parts.length > 0) break; // no gaps: "1d 5s" would read as a typo
  }
  return parts.join(" ");
}

function date(value: string | null): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** What the caching headers of a response say, and what a browser will do with it. */
export function describeCaching(headers: Headers, status: number): CachingInfo {
  const cacheControl = headers.get("cache-control");
  const directives = parseCacheControl(cacheControl);
  const etag = headers.get("etag");
  const lastModified = headers.get("last-modified");
  const ageRaw = headers.get("age")?.trim();
  const age = ageRaw && /^\d+$/.test(ageRaw) ? Number(ageRaw) : null;
  const vary = (headers.get("vary") ?? "").split(",").map((v) => v.trim()).filter(Boolean);
  const expires = headers.get("expires");
  const pragma = headers.get("pragma");
  const base = { cacheControl, directives, etag, lastModified, age, vary, expires, pragma };

  const verdict = (
    policy: CachingInfo["policy"],
    text: string,
    freshFor: number | null = null,
  ): CachingInfo => ({ ...base, policy, freshFor, verdict: text });

  if (directives["no-store"]) return verdict("no-store", "not stored (no-store)");
  if (vary.includes("*")) return verdict("not-cacheable", "not reusable (Vary: *)");
  if (directives["no-cache"] || (!cacheControl && /no-cache/i.test(pragma ?? ""))) {
    return verdict("revalidate", "revalidate every time");
  }

  // Explicit lifetime: max-age, else Expires − Date (an unparsable Expires means already stale).
  let lifetime = seconds(directives["max-age"]);
  if (lifetime === null && expires !== null) {
    const exp = date(expires);
    const now = date(headers.get("date"));
    lifetime = exp === null ? 0 : Math.max(0, Math.round((exp - (now ?? exp)) / 1000));
  }
  if (lifetime !== null) {
    if (lifetime === 0) return verdict("revalidate", "revalidate every time", 0);
    // Age is time already spent in caches on the way: it comes off the lifetime.
    const remaining = lifetime - (age ?? 0);
    if (remaining <= 0) {
      return verdict("revalidate", `stale on arrival (Age ${age}s >= lifetime): revalidate`, 0);
    }
    const notes: string[] = [];
    if (directives.private) notes.push("browser only");
    if (directives.immutable) notes.push("immutable");
    const swr = seconds(directives["stale-while-revalidate"]);
    if (swr) notes.push(`then stale-while-revalidate ${humanDuration(swr)}`);
    if (age) notes.push(`${humanDuration(age)} already spent in caches`);
    const tail = notes.length ? ` (${notes.join(", ")})` : "";
    return verdict("fresh", `cacheable for ${humanDuration(lifetime)}${tail}`, remaining);
  }

  // No explicit lifetime: browsers guess 10% of the time since Last-Modified.
  if (HEURISTICALLY_CACHEABLE.has(status) && lastModified) {
    const modified = date(lastModified);
    const now = date(headers.get("date"));
    const guess = modified !== null && now !== null && now > modified
      ? Math.round((now - modified) / 10_000)
      : null;
    return verdict(
      "heuristic",
      guess
        ? `heuristically cacheable for ~${humanDuration(guess)} (no explicit lifetime)`
        : "heuristically cacheable (no explicit lifetime)",
    );
  }
  if (etag) return verdict("revalidate", "revalidate every time (no lifetime; ETag only)");
  return verdict("not-cacheable", "not cacheable (no lifetime, no validator)");
}
