/** The cookie row of the security table: Secure, HttpOnly and SameSite, as the Observatory reads them. */
import { defineCheck, fail, pass, worst } from "./check_definition.ts";

/** Names the Observatory takes for login or session cookies. */
const SESSION_NAME = /login|sess/i;
/** Names it takes for anti-CSRF tokens. */
const CSRF_NAME = /csrf/i;
const VALID_SAME_SITE = new Set(["Strict", "Lax", "None"]);

const outcomes = {
  "cookies-secure-with-httponly-sessions-and-samesite": pass(
    5,
    "All cookies are Secure, session cookies are HttpOnly, and all set SameSite",
  ),
  "cookies-secure-with-httponly-sessions": pass(
    0,
    "All cookies are Secure and session cookies are HttpOnly",
    "Set SameSite=Lax (or Strict) on every cookie.",
  ),
  "cookies-not-found": pass(0, "No cookies are set"),
  "cookies-without-secure-flag-but-protected-by-hsts": fail(
    -5,
    "Cookies are set without Secure, but HSTS keeps them off plain HTTP",
    "Add the Secure attribute.",
  ),
  "cookies-session-without-secure-flag-but-protected-by-hsts": fail(
    -10,
    "A session cookie is set without Secure, but HSTS keeps it off plain HTTP",
    "Add the Secure attribute.",
  ),
  "cookies-without-secure-flag": fail(
    -20,
    "Cookies are set without Secure, or over HTTP",
    "Add the Secure attribute and set up HSTS.",
  ),
  "cookies-samesite-flag-invalid": fail(
    -20,
    "SameSite is set to something other than Strict, Lax or None, or None without Secure",
    "Use SameSite=Strict or Lax (None only together with Secure).",
  ),
  "cookies-anticsrf-without-samesite-flag": fail(
    -20,
    "An anti-CSRF token is set without SameSite",
    "Set SameSite=Strict or Lax on the anti-CSRF cookie.",
  ),
  "cookies-session-without-httponly-flag": fail(
    -30,
    "A session cookie is set without HttpOnly: scripts (and XSS) can read it",
    "Add the HttpOnly attribute to session cookies.",
  ),
  "cookies-session-without-secure-flag": fail(
    -40,
    "A session cookie is set without Secure, or over HTTP",
    "Add the Secure attribute and set up HSTS.",
  ),
};

type CookieResult = keyof typeof outcomes;

/** Cookies of the final response (names and attributes only; values are never read). */
export const cookiesCheck = defineCheck({
  id: "cookies",
  title: "Cookies",
  description: "Cookies are Secure, session cookies HttpOnly, and all carry a valid SameSite",
  outcomes,
  evaluate(ctx) {
    if (ctx.cookies.length === 0) return "cookies-not-found";
    const found: CookieResult[] = [];
    const evidence: string[] = [];
    const note = (result: CookieResult, why: string) => {
      found.push(result);
      evidence.push(why);
    };
    const hsts = ctx.hstsProtects;
    let everySameSite = true;
    for (const c of ctx.cookies) {
      const session = SESSION_NAME.test(c.name);
      const kind = session
        ? "session cookie"
        : CSRF_NAME.test(c.name)
        ? "anti-CSRF cookie"
        : "cookie";
      const label = `${kind} ${c.name}`;
      if (c.sameSite !== null && !VALID_SAME_SITE.has(c.sameSite)) {
        note("cookies-samesite-flag-invalid", `${label}: SameSite=${c.sameSite} is not valid`);
      }
      if (c.sameSite === "None" && !c.secure) {
        note("cookies-samesite-flag-invalid", `${label}: SameSite=None without Secure`);
      }
      if (!c.secure) {
        const result = session
          ? hsts
            ? "cookies-session-without-secure-flag-but-protected-by-hsts"
            : "cookies-session-without-secure-flag"
          : hsts
          ? "cookies-without-secure-flag-but-protected-by-hsts"
          : "cookies-without-secure-flag";
        note(result, `${label}: no Secure`);
      }
      if (CSRF_NAME.test(c.name) && c.sameSite === null) {
        note("cookies-anticsrf-without-samesite-flag", `${label}: no SameSite`);
      }
      if (session && !c.httpOnly) {
        note("cookies-session-without-httponly-flag", `${label}: no HttpOnly`);
      }
      everySameSite &&= c.sameSite !== null;
    }
    const problem = worst(outcomes, found);
    if (problem) return { result: problem, evidence };
    return everySameSite ? "cookies-secure-with-httponly-sessions-and-samesite" : {
      result: "cookies-secure-with-httponly-sessions",
      evidence: ctx.cookies.filter((c) => c.sameSite === null).map((c) => `${c.name}: no SameSite`),
    };
  },
});
