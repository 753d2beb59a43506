/** Rows of the security table about transport: HSTS, HTTP → HTTPS redirection, mixed content. */
import { defineCheck, fail, pass } from "./check_definition.ts";
import { HSTS_MIN_MAX_AGE, preloadReady } from "./hsts.ts";

const HSTS_ADD = "Send Strict-Transport-Security: max-age=63072000; includeSubDomains " +
  "(roll out with a short max-age first, as hstspreload.org suggests).";

/** Strict-Transport-Security on the final response. */
export const hstsCheck = defineCheck({
  id: "strict-transport-security",
  title: "Strict Transport Security (HSTS)",
  description: "A valid Strict-Transport-Security header of six months or more, over HTTPS",
  outcomes: {
    "hsts-preload-ready": pass(
      0,
      "HSTS set for a year or more with includeSubDomains and preload: eligible for preloading",
    ),
    "hsts-implemented-max-age-at-least-six-months": pass(
      0,
      "Strict-Transport-Security set to six months (15552000 s) or more",
      "Consider preloading: add includeSubDomains and preload, set max-age to at least " +
        "31536000 and submit the site to hstspreload.org.",
    ),
    "hsts-implemented-max-age-less-than-six-months": fail(
      -10,
      "Strict-Transport-Security set to less than six months",
      "Increase max-age to at least 15552000 (six months).",
    ),
    "hsts-not-implemented": fail(-20, "Strict-Transport-Security header not sent", HSTS_ADD),
    "hsts-header-invalid": fail(
      -20,
      "Strict-Transport-Security header cannot be recognised",
      "Send it once, with one numeric max-age: max-age=63072000; includeSubDomains.",
    ),
    "hsts-not-implemented-no-https": fail(
      -20,
      "Strict-Transport-Security cannot apply: the page is not served over HTTPS",
      "Serve the site over HTTPS, redirect HTTP to it, then send Strict-Transport-Security.",
    ),
  },
  evaluate(ctx) {
    const raw = ctx.header("strict-transport-security");
    if (!ctx.https) {
      return {
        result: "hsts-not-implemented-no-https",
        evidence: raw ? ["browsers ignore Strict-Transport-Security received over HTTP"] : [],
      };
    }
    if (raw === null) return "hsts-not-implemented";
    const evidence = [raw.slice(0, 200)];
    if (ctx.hsts === null) return { result: "hsts-header-invalid", evidence };
    if (ctx.hsts.maxAge < HSTS_MIN_MAX_AGE) {
      return { result: "hsts-implemented-max-age-less-than-six-months", evidence };
    }
    return {
      result: preloadReady(ctx.hsts)
        ? "hsts-preload-ready"
        : "hsts-implemented-max-age-at-least-six-months",
      evidence,
    };
  },
});

/** At most this many URLs are quoted as evidence. */
const EVIDENCE_LIMIT = 10;

/** `urls` for evidence, cut to the limit with a count of the rest. */
export function quoted(urls: readonly string[]): string[] {
  if (urls.length <= EVIDENCE_LIMIT) return [...urls];
  return [...urls.slice(0, EVIDENCE_LIMIT), `...and ${urls.length - EVIDENCE_LIMIT} more`];
}

/** Subresources fetched over plain HTTP by an HTTPS page. */
export const mixedContentCheck = defineCheck({
  id: "mixed-content",
  title: "Mixed content",
  description:
    "Scripts, styles, frames, plugins, images and media of an HTTPS page load over HTTPS",
  outcomes: {
    "mixed-content-none": pass(0, "Every subresource of the HTTPS page is loaded over HTTPS"),
    "mixed-content-upgraded": pass(
      0,
      "http:// subresources are upgraded to HTTPS by the CSP upgrade-insecure-requests directive",
      "Change the http:// URLs to https:// so that they do not depend on the upgrade.",
    ),
    "mixed-content-not-html": pass(0, "Not an HTML page: no subresources to check"),
    "mixed-content-not-https": pass(
      0,
      "The page itself is served over HTTP: mixed content does not apply (see HSTS)",
    ),
    "mixed-content-passive": fail(
      0,
      "Images or media of the HTTPS page are loaded over HTTP",
      "Load images and media over HTTPS: browsers upgrade or flag them, and they can be altered.",
    ),
    "mixed-content-active": fail(
      0,
      "Scripts, stylesheets, frames or plugins of the HTTPS page are loaded over HTTP",
      "Load them over HTTPS: browsers block active mixed content, so the page is broken.",
    ),
  },
  evaluate(ctx) {
    if (!ctx.page) return "mixed-content-not-html";
    if (!ctx.https) return "mixed-content-not-https";
    const { active, passive } = ctx.insecureSubresources;
    if (active.length + passive.length === 0) return "mixed-content-none";
    const evidence = quoted([...active, ...passive]);
    const upgrades = [...ctx.csp.header, ...ctx.csp.meta].some((p) =>
      p.has("upgrade-insecure-requests")
    );
    if (upgrades) return { result: "mixed-content-upgraded", evidence };
    return { result: active.length ? "mixed-content-active" : "mixed-content-passive", evidence };
  },
});

const REDIRECT_FIRST = "Redirect http:// to the same host on https:// first (where HSTS can be " +
  "set), then to any other host.";

/**
 * Plain HTTP leads to HTTPS: the page's http:// URL redirects, first to HTTPS on the same host,
 * and ends on HTTPS. The Observatory's rules, in its order, on the chain of responses.
 */
export const redirectionCheck = defineCheck({
  id: "redirection",
  title: "Redirection",
  description: "http:// redirects to https:// on the same host first, and ends on HTTPS",
  outcomes: {
    "redirection-to-https": pass(
      0,
      "The first redirect from HTTP goes to HTTPS on the same host, and the last one ends on HTTPS",
    ),
    "redirection-not-needed-no-http": pass(
      0,
      "Plain HTTP cannot be reached, so there is nothing to redirect",
    ),
    "redirection-off-host-from-http": fail(
      -5,
      "The first redirect from HTTP goes to HTTPS on another host, so the host's HSTS is never set",
      REDIRECT_FIRST,
    ),
    "redirection-not-to-https-on-initial-redirection": fail(
      -10,
      "HTTP ends on HTTPS, but its first redirect goes to another http:// URL",
      REDIRECT_FIRST,
    ),
    "redirection-not-to-https": fail(
      -20,
      "HTTP redirects, but the last response is not over HTTPS",
      REDIRECT_FIRST,
    ),
    "redirection-missing": fail(
      -20,
      "HTTP answers without redirecting to HTTPS",
      "Answer every http:// request with a 301 to the same URL on https://.",
    ),
  },
  evaluate(ctx) {
    const route = ctx.httpRoute;
    if (!route.reached) {
      return { result: "redirection-not-needed-no-http", evidence: [route.reason.slice(0, 200)] };
    }
    const steps = route.steps.map((s) => ({ ...s, parsed: new URL(s.url) }));
    // Scheme and host decide; the query (which may carry anything) stays in `redirects`.
    const evidence = steps.map((s) => `${s.status} ${s.parsed.origin}${s.parsed.pathname}`);
    const [first, second] = steps;
    if (steps.length === 1) return { result: "redirection-missing", evidence };
    if (steps[steps.length - 1].parsed.protocol !== "https:") {
      return { result: "redirection-not-to-https", evidence };
    }
    if (second.parsed.protocol === "http:") {
      return { result: "redirection-not-to-https-on-initial-redirection", evidence };
    }
    if (first.parsed.protocol === "http:" && first.parsed.hostname !== second.parsed.hostname) {
      return { result: "redirection-off-host-from-http", evidence };
    }
    return { result: "redirection-to-https", evidence };
  },
});
