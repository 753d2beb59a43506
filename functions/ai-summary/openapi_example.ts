/**
 * The example answers `/openapi.json` shows for `GET /summary` (without a model: extractive) and
 * `GET /read` of a blog post: the app's own output on a test fixture (long texts shortened),
 * checked against the response schemas by Redocly's lint in tests/openapi_test.ts.
 */

/** Example of the `GET /summary` answer. */
export const SUMMARY_EXAMPLE = {
  "title": "Rebuilding the edge cache & what broke",
  "summary": "Our edge cache had served us well for four years.",
};

/** Example of the `GET /read` answer (Markdown, shortened). */
export const READ_EXAMPLE = {
  "url": "https://example.com/pages/blog.html",
  "finalUrl": "https://example.com/pages/blog.html",
  "format": "markdown",
  "title": "Rebuilding the edge cache & what broke",
  "byline": "Ada Quinn",
  "siteName": "Lighthouse Log",
  "lang": "en-GB",
  "publishedTime": "2024-03-02T09:30:00Z",
  "excerpt": "How a three-person team rebuilt a CDN edge cache in a weekend.",
  "wordCount": 31,
  "content":
    "Our edge cache had served us well for four years. Then traffic tripled.\n\n![Cache tiers before and after](https://example.com/images/diagram.png) \n\nThe first bug was a race in revalidation; the second was a header we forgot to vary on.",
};
