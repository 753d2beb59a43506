/**
 * Set-Cookie lines described the way a browser would store them, with every attribute and
 * never the value: the inspector shows what a cookie is, not what it holds.
 */
import { parseSetCookie } from "set-cookie-parser";
import type { CookieInfo } from "./schema.ts";

const SAME_SITE: Record<string, string> = { strict: "Strict", lax: "Lax", none: "None" };

/** RFC 6265 §5.1.4: the directory of the request path, or "/". */
export function defaultCookiePath(url: URL): string {
  const path = url.pathname;
  if (!path.startsWith("/")) return "/";
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** An ISO time for a Date that parsed, else null. */
function iso(date: Date | undefined): string | null {
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

/**
 * Describes each raw `Set-Cookie` line received from `url`. Lines without a cookie (empty,
 * or a forbidden name) are skipped, as a browser would ignore them.
 */
export function describeCookies(setCookies: readonly string[], url: URL): CookieInfo[] {
  // decodeValues off: values are dropped anyway, and decoding a bad %-escape only logs noise.
  const parsed = parseSetCookie([...setCookies], { decodeValues: false, silent: true });
  return parsed.map((c) => {
    const domain = c.domain?.trim().replace(/^\./, "").toLowerCase();
    const path = c.path?.trim();
    const sameSite = c.sameSite === undefined
      ? null
      : SAME_SITE[c.sameSite.trim().toLowerCase()] ?? c.sameSite.trim();
    const expires = iso(c.expires);
    const maxAge = c.maxAge ?? null;
    return {
      name: c.name.trim(),
      domain: domain || url.hostname,
      hostOnly: !domain,
      path: path?.startsWith("/") ? path : defaultCookiePath(url),
      expires,
      maxAge,
      session: expires === null && maxAge === null,
      secure: c.secure === true,
      httpOnly: c.httpOnly === true,
      sameSite,
      partitioned: c.partitioned === true,
    };
  });
}
