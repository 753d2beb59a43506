/**
 * The example answer `/openapi.json` shows for `GET /summary` of a blog post, without a model (extractive): the app's own output on a test
 * fixture (arrays cut to two entries, long texts shortened), checked against the response schema
 * by Redocly's lint in tests/openapi_test.ts.
 */

/** Example of the success answer. */
export const SUMMARY_EXAMPLE = {
  "title": "Rebuilding the edge cache & what broke",
  "summary": "Our edge cache had served us well for four years.",
};
