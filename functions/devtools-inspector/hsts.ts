/** Strict-Transport-Security, parsed as browsers read it (RFC 6797 §6.1). */

/**
 * The bar for a useful HSTS lifetime: six months. 15768000 s is six months exactly, but the
 * Observatory accepts the common 180 days (15552000 s), and so does this audit.
 */
export const HSTS_MIN_MAX_AGE = 15_552_000;

/** What the preload list asks for (hstspreload.org): one year, in seconds. */
export const HSTS_PRELOAD_MAX_AGE = 31_536_000;

/** A parsed Strict-Transport-Security value. */
export interface Hsts {
  maxAge: number;
  includeSubDomains: boolean;
  preload: boolean;
}

/**
 * Parses a header value; null when it has no valid `max-age`, repeats a directive, or was sent
 * more than once (joined with a comma: browsers would use only the first, the Observatory calls
 * it invalid, and either way it is a misconfiguration worth seeing).
 */
export function parseHsts(value: string | null): Hsts | null {
  if (!value || value.includes(",")) return null;
  const seen = new Set<string>();
  let maxAge: number | null = null;
  for (const part of value.split(";")) {
    const [rawName, ...rest] = part.split("=");
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    if (seen.has(name)) return null;
    seen.add(name);
    if (name === "max-age") {
      const v = rest.join("=").trim().replace(/^"(.*)"$/, "$1");
      if (!/^\d+$/.test(v)) return null;
      maxAge = Number(v);
    }
  }
  if (maxAge === null) return null;
  return { maxAge, includeSubDomains: seen.has("includesubdomains"), preload: seen.has("preload") };
}

/** True when a policy meets hstspreload.org's header requirements (the list is not consulted). */
export function preloadReady(hsts: Hsts): boolean {
  return hsts.preload && hsts.includeSubDomains && hsts.maxAge >= HSTS_PRELOAD_MAX_AGE;
}
