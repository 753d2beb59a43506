/**
 * How each fixture page of tests/fixtures/pages/ is served for the expected-JSON check: the
 * fixture server's query options (`header=`, `encoding=`, `type=`), chosen per page so that
 * together they walk the security table, the caching verdicts and the encodings.
 */
import type { FixtureServer } from "../support/fixture_server.ts";

/** Where the fixture pages live. */
export const PAGES_DIR = new URL("../fixtures/pages/", import.meta.url);
/** Where the expected results live: `expected/<fixture file name>.json`. */
export const EXPECTED_DIR = new URL("./expected/", import.meta.url);

type Options = [string, string][];

/** Query options per fixture page; a page not listed is served as the fixture server sends it. */
export const SERVE_OPTIONS: Record<string, Options> = {
  "blog.html": [
    ["encoding", "gzip"],
    ["header", "Cache-Control: public, max-age=3600, stale-while-revalidate=60"],
    ["header", 'ETag: "blog-v1"'],
    ["header", "Vary: Accept-Encoding"],
    ["header", "X-Content-Type-Options: nosniff"],
    ["header", "Referrer-Policy: strict-origin-when-cross-origin"],
    ["header", "Set-Cookie: session_id=SECRET-blog-1; Path=/; HttpOnly; SameSite=Lax"],
    ["header", "Set-Cookie: theme=SECRET-blog-2; Max-Age=31536000; Path=/posts"],
  ],
  "nextjs.html": [
    ["encoding", "br"],
    [
      "header",
      "Content-Security-Policy: default-src 'self'; script-src 'nonce-r4nd0m' 'strict-dynamic' " +
      "'unsafe-inline' https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    ],
    ["header", "X-Frame-Options: DENY"],
    ["header", 'Permissions-Policy: camera=(), geolocation=(self "https://maps.example")'],
    ["header", "Cross-Origin-Opener-Policy: same-origin"],
    ["header", "Cross-Origin-Resource-Policy: same-origin"],
    ["header", "Cache-Control: private, no-cache"],
    [
      "header",
      "Set-Cookie: __Host-csrf_token=SECRET-next; Path=/; Secure; HttpOnly; SameSite=Strict",
    ],
  ],
  "wordpress.html": [
    ["header", "X-Powered-By: PHP/8.2.14"],
    ["header", "X-Frame-Options: SAMEORIGIN"],
    ["header", "Referrer-Policy: unsafe-url"],
    ["header", "Cache-Control: max-age=600"],
    ["header", "Age: 120"],
    ["header", "Set-Cookie: wordpress_logged_in_3f2a=SECRET-wp-1; path=/"],
    [
      "header",
      "Set-Cookie: wp-settings-1=SECRET-wp-2; expires=Wed, 01 Jan 2031 00:00:00 GMT; " +
      "path=/wp-admin; domain=.127.0.0.1; SameSite=Bogus",
    ],
  ],
  "broken-jsonld.html": [
    ["encoding", "deflate"],
    [
      "header",
      "Content-Security-Policy: default-src 'none'; img-src 'self'; style-src 'self'; " +
      "form-action 'self'; frame-ancestors 'none'",
    ],
    ["header", "Feature-Policy: camera 'none'"],
    ["header", 'Cross-Origin-Opener-Policy: same-origin-allow-popups; report-to="coop"'],
    ["header", "Cross-Origin-Resource-Policy: same-site"],
    ["header", "Cache-Control: no-store"],
  ],
  "latin1.html": [
    ["type", "text/html;charset=iso-8859-1"],
    ["header", "Content-Security-Policy-Report-Only: default-src 'self'"],
    ["header", "Permissions-Policy: camera 'none'"],
    ["header", "X-Content-Type-Options: sniff-please"],
    ["header", "Cache-Control: no-cache"],
    ["header", 'ETag: W/"latin1"'],
  ],
  "package.json": [
    ["encoding", "gzip"],
    ["header", "Cache-Control: public, max-age=31536000, immutable"],
    ["header", "Access-Control-Allow-Origin: *"],
    ["header", "Cross-Origin-Resource-Policy: cross-origin"],
    ["header", "X-Content-Type-Options: nosniff"],
  ],
};

/** Fixture pages fetched through a redirect first (the redirect's status). */
export const VIA_REDIRECT: Record<string, number> = { "wordpress.html": 301 };

/** The URL the test asks `/inspect` about for a fixture page. */
export function fixtureUrl(server: FixtureServer, name: string): string {
  const options = SERVE_OPTIONS[name];
  const page = `/pages/${name}${options ? `?${new URLSearchParams(options)}` : ""}`;
  const status = VIA_REDIRECT[name];
  if (!status) return server.url(page);
  return server.url(`/redirect?${new URLSearchParams({ to: page, status: String(status) })}`);
}

/** Every fixture page, sorted, so a new page without an expected file fails. */
export function fixtureNames(): string[] {
  return [...Deno.readDirSync(PAGES_DIR)]
    .filter((e) => e.isFile && /\.(?:html?|json)$/.test(e.name))
    .map((e) => e.name)
    .sort();
}
