/** The CORS row of the security table: what a CORS preflight from a stranger's origin is told. */
import { defineCheck, fail, pass } from "./check_definition.ts";

/**
 * Cross-origin reads: the answer to a preflight sent from an origin the site has never heard
 * of. Only a 2xx answer counts, as for browsers (a preflight needs an ok status) and for the
 * Observatory's client. Reflecting that origin together with credentials opens the site's
 * logged-in data to every other site.
 */
export const corsCheck = defineCheck({
  id: "cross-origin-resource-sharing",
  title: "Cross Origin Resource Sharing (CORS)",
  description: "A CORS preflight from an unknown origin is not granted credentialed access",
  outcomes: {
    "cross-origin-resource-sharing-not-implemented": pass(
      0,
      "The preflight gets no Access-Control-Allow-Origin: other sites cannot read the content",
    ),
    "cross-origin-resource-sharing-implemented-with-public-access": pass(
      0,
      "Access-Control-Allow-Origin: * makes the content public to every site, without credentials",
    ),
    "cross-origin-resource-sharing-implemented-with-restricted-access": pass(
      0,
      "Access-Control-Allow-Origin names specific origins, not the unknown one that asked",
    ),
    "cross-origin-resource-sharing-implemented-with-universal-access": fail(
      -50,
      "Any origin is echoed back with Access-Control-Allow-Credentials: true: every site can " +
        "read what a logged-in user sees",
      "Allow credentials only for a fixed list of origins; for public data send " +
        "Access-Control-Allow-Origin: * without Access-Control-Allow-Credentials.",
    ),
  },
  evaluate(ctx) {
    const preflight = ctx.preflight;
    if (!preflight.answered) {
      return {
        result: "cross-origin-resource-sharing-not-implemented",
        evidence: [`no answer to the preflight: ${preflight.reason}`.slice(0, 200)],
      };
    }
    const allowOrigin = preflight.headers.get("access-control-allow-origin");
    if (preflight.status < 200 || preflight.status > 299 || allowOrigin === null) {
      return {
        result: "cross-origin-resource-sharing-not-implemented",
        evidence: [
          `preflight from ${preflight.origin} answered ${preflight.status}` +
          (allowOrigin === null ? " without Access-Control-Allow-Origin" : " (not ok)"),
        ],
      };
    }
    const credentials = preflight.headers.get("access-control-allow-credentials");
    const evidence = [
      `Access-Control-Allow-Origin: ${allowOrigin.slice(0, 200)}`,
      ...(credentials === null ? [] : [`Access-Control-Allow-Credentials: ${credentials}`]),
    ];
    if (allowOrigin.trim() === "*") {
      return { result: "cross-origin-resource-sharing-implemented-with-public-access", evidence };
    }
    if (allowOrigin === preflight.origin && credentials?.trim().toLowerCase() === "true") {
      return {
        result: "cross-origin-resource-sharing-implemented-with-universal-access",
        evidence,
      };
    }
    return { result: "cross-origin-resource-sharing-implemented-with-restricted-access", evidence };
  },
});
