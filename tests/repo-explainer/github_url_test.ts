/** Which URLs name a GitHub repository, and which do not. */
import assert from "node:assert/strict";
import { parseGithubRepoUrl } from "../../functions/repo-explainer/github_url.ts";

Deno.test("parseGithubRepoUrl: the accepted forms", () => {
  const cases: [string, { owner: string; repo: string; ref: string | null }][] = [
    ["https://github.com/acme/rocket", { owner: "acme", repo: "rocket", ref: null }],
    ["https://github.com/acme/rocket/", { owner: "acme", repo: "rocket", ref: null }],
    ["https://github.com/acme/rocket.git", { owner: "acme", repo: "rocket", ref: null }],
    ["http://github.com/acme/rocket", { owner: "acme", repo: "rocket", ref: null }],
    ["https://www.github.com/acme/rocket", { owner: "acme", repo: "rocket", ref: null }],
    ["https://GitHub.com/Acme-Co/Rocket_2.js", {
      owner: "Acme-Co",
      repo: "Rocket_2.js",
      ref: null,
    }],
    ["https://github.com/acme/rocket/tree/dev", { owner: "acme", repo: "rocket", ref: "dev" }],
    ["https://github.com/acme/rocket/tree/v1.2.0/src", {
      owner: "acme",
      repo: "rocket",
      ref: "v1.2.0",
    }],
    ["https://github.com/acme/rocket/blob/main/src/a.ts", {
      owner: "acme",
      repo: "rocket",
      ref: null,
    }],
    ["https://github.com/acme/rocket/issues/12?q=1#top", {
      owner: "acme",
      repo: "rocket",
      ref: null,
    }],
    ["https://github.com/acme/rocket/tree", { owner: "acme", repo: "rocket", ref: null }],
  ];
  for (const [url, expected] of cases) {
    assert.deepEqual(parseGithubRepoUrl(new URL(url).href), expected, url);
  }
});

Deno.test("parseGithubRepoUrl: everything else is refused", () => {
  for (
    const url of [
      "https://gitlab.com/acme/rocket",
      "https://gist.github.com/acme/rocket",
      "https://api.github.com/repos/acme/rocket",
      "https://github.com.evil.test/acme/rocket",
      "https://github.com:8443/acme/rocket",
      "https://user:pw@github.com/acme/rocket",
      "https://github.com/",
      "https://github.com/acme",
      "https://github.com/acme/.git",
      "https://github.com/orgs/acme",
      "https://github.com/settings/profile",
      "https://github.com/-acme/rocket",
      "https://github.com/ac--me/rocket",
      "https://github.com/acme/..",
      "https://github.com/acme/rock%2F..%2Fet",
      "https://github.com/acme/rocket%3Fx",
      "https://github.com/acme/rocket/tree/bad..ref",
      "https://github.com/acme/%E0%A4%A",
      `https://github.com/${"a".repeat(40)}/rocket`,
      "ftp://github.com/acme/rocket",
      "not a url",
    ]
  ) assert.equal(parseGithubRepoUrl(url), null, url);
});
