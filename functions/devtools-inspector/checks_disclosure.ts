/**
 * Version disclosure: response headers (and `<meta name="generator">`) that name the server's
 * software with its version, which tells an attacker which known vulnerabilities to try. This
 * service's own row: it fails with the evidence but never moves the Observatory's score.
 */
import { defineCheck, fail, pass } from "./check_definition.ts";
import { quoted } from "./checks_transport.ts";

/** Headers that name software; a version in any of them is disclosed. */
export const DISCLOSING_HEADERS = [
  "server",
  "x-powered-by",
  "x-aspnet-version",
  "x-aspnetmvc-version",
  "x-generator",
  "x-powered-cms",
  "x-php-version",
  "x-runtime-version",
  "x-version",
  "x-app-version",
  "x-drupal-version",
  "x-mod-pagespeed",
  "x-page-speed",
  "x-owa-version",
  "x-sourcemap-version",
  "x-turbo-charged-by",
  "x-litespeed-version",
  "x-served-by-version",
];

/** Headers whose value is a version by definition (ASP.NET's, Outlook Web Access's). */
const ALWAYS_VERSION = new Set(["x-aspnet-version", "x-aspnetmvc-version", "x-owa-version"]);

/** A version number: `2.4.41`, `8.1`, `Apache/2`, `PHP/8`, `v18`. */
const VERSION = /\d+\.\d+|\/v?\d|\bv\d+\b|[a-z] \d+\b/i;

/** Characters of a header value quoted as evidence at most. */
const EVIDENCE_CHARS = 120;

/** Characters of a value searched for a version (the search is quadratic on a run of digits). */
const SEARCHED_CHARS = 512;

/** True when `value` of header `name` reveals a software version. */
export function revealsVersion(name: string, value: string): boolean {
  if (ALWAYS_VERSION.has(name)) return value.trim() !== "";
  return VERSION.test(value.slice(0, SEARCHED_CHARS));
}

/** The version-disclosure row. */
export const versionDisclosureCheck = defineCheck({
  id: "version-disclosure",
  title: "Software version disclosure",
  description: "Server, X-Powered-By, X-AspNet-Version, X-Generator and the like name no version",
  outcomes: {
    "version-not-disclosed": pass(0, "No header names a software version"),
    "version-not-disclosed-software-named": pass(
      0,
      "Headers name the software but not its version",
      "Consider removing Server and X-Powered-By details altogether.",
    ),
    "version-disclosed": fail(
      0,
      "Headers reveal software versions",
      "Remove version numbers from Server, X-Powered-By and similar headers (nginx: " +
        "server_tokens off; Apache: ServerTokens Prod; PHP: expose_php = Off; ASP.NET: " +
        "enableVersionHeader=false and remove X-Powered-By) and from <meta name=generator>.",
    ),
  },
  evaluate(ctx) {
    const evidence: string[] = [];
    let named = false;
    for (const name of DISCLOSING_HEADERS) {
      const value = ctx.header(name);
      if (value === null || value.trim() === "") continue;
      named = true;
      if (revealsVersion(name, value)) evidence.push(`${name}: ${value.slice(0, EVIDENCE_CHARS)}`);
    }
    const generators: string[] = [];
    for (const generator of ctx.metaNamed("generator")) {
      if (VERSION.test(generator.slice(0, SEARCHED_CHARS))) {
        generators.push(`<meta name="generator" content="${generator.slice(0, EVIDENCE_CHARS)}">`);
      }
    }
    // A page may repeat the tag thousands of times: quote a few and count the rest.
    evidence.push(...quoted(generators));
    if (evidence.length > 0) return { result: "version-disclosed", evidence };
    return named ? "version-not-disclosed-software-named" : "version-not-disclosed";
  },
});
