/**
 * `GET /explain` end to end: a fake GitHub API and a fake OpenAI-compatible server on
 * loopback, the real @huggingface/inference client through the `AI` binding.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/repo-explainer/app.ts";
import { EXPLAIN_SYSTEM_PROMPT } from "../../functions/repo-explainer/prompt.ts";
import { type AI, createAi, extractiveAi } from "../../shared/bindings/ai/mod.ts";
import { section } from "../../functions/repo-explainer/repo_text.ts";
import { loadO200k } from "../../functions/repo-explainer/o200k.ts";
import { type FakeRepo, type GithubMode, startGithubFake } from "../support/github_fake.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { FAKE_MODEL, type FakeBehaviour, startOpenAiFake } from "../support/openai_fake.ts";
import { openPolicy } from "../support/policy.ts";

const { count: countTokens } = await loadO200k();

const PACKAGE_JSON = `{
  "name": "rocket",
  "version": "1.4.0",
  "scripts": { "start": "node src/index.js", "test": "node --test" },
  "dependencies": { "express": "^4.19.0" }
}
`;

const README = `# Rocket

![build](https://img.shields.io/badge/build-passing-green.svg)

Rocket is a tiny web server that serves static sites with zero configuration.

## Getting started

Install the dependencies with npm install, then run npm start to serve the current folder.
`;

const ROCKET: FakeRepo = {
  owner: "acme",
  name: "rocket",
  description: "A tiny static web server.",
  language: "JavaScript",
  stars: 1234,
  topics: ["http", "static-site"],
  license: { spdx_id: "MIT", name: "MIT License" },
  defaultBranch: "main",
  branches: ["dev"],
  files: {
    ".github": null,
    "LICENSE": "MIT License ...",
    "README.md": README,
    "package.json": PACKAGE_JSON,
    "src": null,
  },
  readme: README,
};

const NO_README: FakeRepo = {
  owner: "acme",
  name: "bare",
  description: null,
  language: "Go",
  stars: 0,
  license: { spdx_id: "NOASSERTION", name: "Other" },
  files: { "go.mod": "module example.com/bare\n\ngo 1.22\n", "main.go": "package main\n" },
};

const EMPTY: FakeRepo = { owner: "acme", name: "empty", files: {} };

const LONG: FakeRepo = {
  owner: "acme",
  name: "long",
  description: "Long readme.",
  files: { "README.md": "x" },
  readme: "Long line of words. ".repeat(500), // 10,000 characters
};

/** The token counts `/explain` reports for top-level files `files` (no folders). */
function topLevelTokens(files: Record<string, string | null>) {
  const counted = Object.entries(files)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([path, text]) => ({ path, tokens: countTokens(section(path, text)) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  return {
    tokenizer: "o200k_base",
    exact: true,
    total: counted.reduce((n, f) => n + f.tokens, 0),
    files: counted,
    directories: [],
  };
}

/** The digest of ROCKET: built from the API's answers alone. */
const ROCKET_DIGEST = {
  about: "A tiny static web server.",
  topics: ["http", "static-site"],
  languages: ["JavaScript"],
  stack: [{
    file: "package.json",
    ecosystem: "npm",
    language: "JavaScript",
    name: "rocket",
    version: "1.4.0",
    dependencies: ["express"],
    devDependencies: [],
  }],
  entryPoints: ["src/index.js (scripts.start)"],
  run: [
    { command: "npm install", runs: null },
    { command: "npm start", runs: "node src/index.js" },
    { command: "npm test", runs: "node --test" },
  ],
  readmeIntro: "Rocket is a tiny web server that serves static sites with zero configuration.",
  tree: [".github/", "LICENSE", "README.md", "package.json", "src/"],
};

/** A Deno project with several manifests (all read, the main one first) and comments in deno.jsonc. */
const COMET: FakeRepo = {
  owner: "acme",
  name: "comet",
  description: null,
  language: "TypeScript",
  topics: [],
  files: {
    "deno.jsonc": `{
  // tasks the README mentions
  "tasks": { "dev": "deno run -A --watch main.ts", "test": "deno test -A" },
  "imports": { "hono": "npm:hono@4.13.19", "@std/assert": "jsr:@std/assert@1" },
}
`,
    "Makefile": "DENO := deno\n\nbuild: deps\n\t$(DENO) compile main.ts\n\n.PHONY: build\n",
    "requirements.txt":
      "# tooling\nmkdocs>=1.5\nmkdocs-material[imaging]==9.5.0 ; python_version >= '3.8'\n-r docs.txt\n",
    "main.ts": "Deno.serve(() => new Response('hi'));\n",
    "docs": null,
  },
  readme: `<p align="center"><img src="logo.svg" width="120"></p>

[![CI](https://github.com/acme/comet/actions/workflows/ci.yml/badge.svg)](https://github.com/acme/comet/actions) [![JSR](https://jsr.io/badges/@acme/comet)](https://jsr.io/@acme/comet)

**Comet** is a small [Hono](https://hono.dev) service that answers \`/ping\` from the edge, with no build step.

More text.
`,
};

const ROCKET_FACTS = {
  repo: "acme/rocket",
  description: "A tiny static web server.",
  language: "JavaScript",
  stars: 1234,
  topics: ["http", "static-site"],
  license: "MIT",
  defaultBranch: "main",
  files: [".github/", "LICENSE", "README.md", "package.json", "src/"],
};

interface Setup {
  app: ReturnType<typeof createApp>;
  github: ReturnType<typeof startGithubFake>;
  model: ReturnType<typeof startOpenAiFake>;
}

async function withSetup(
  fn: (ctx: Setup) => Promise<void>,
  options: {
    behaviour?: FakeBehaviour;
    mode?: GithubMode;
    token?: string;
    ai?: AI;
    fetchTimeoutMs?: number;
  } = {},
) {
  const github = startGithubFake([ROCKET, NO_README, EMPTY, LONG, COMET], options.mode);
  const model = startOpenAiFake(
    options.behaviour ?? { kind: "reply", content: "It serves sites." },
  );
  const ai = options.ai ??
    createAi({ kind: "openai-compatible", baseUrl: model.origin, model: "m", timeoutMs: 300 });
  const app = createApp({
    fetchPolicy: openPolicy({ timeoutMs: options.fetchTimeoutMs ?? 5_000 }),
    AI: ai,
    github: { apiUrl: github.apiUrl, token: options.token },
  }, { log: () => {} });
  try {
    await fn({ app, github, model });
  } finally {
    await model.close();
    await github.close();
  }
}

function explain(app: Setup["app"], url: string) {
  return app.request(`/explain?url=${encodeURIComponent(url)}`);
}

Deno.test("explain: metadata, files and the model's summary; what the model and GitHub received", async () => {
  await withSetup(async ({ app, github, model }) => {
    const res = await explain(app, "https://github.com/acme/rocket");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(res.headers.get("x-ai-model"), FAKE_MODEL);
    assert.deepEqual(await res.json(), {
      ...ROCKET_FACTS,
      summary: "It serves sites.",
      digest: ROCKET_DIGEST,
      tokens: topLevelTokens(ROCKET.files!),
    });

    assert.deepEqual(github.requests.map((r) => r.path).sort(), [
      "/repos/acme/rocket",
      "/repos/acme/rocket/contents",
      "/repos/acme/rocket/contents/package.json",
      "/repos/acme/rocket/readme",
      "/repos/acme/rocket/tarball",
    ]);
    assert.equal(github.downloads.length, 1, "one archive download");
    assert.equal(github.downloads[0].headers.get("authorization"), null, "no token to codeload");
    for (const r of github.requests) {
      assert.equal(r.headers.get("authorization"), "Bearer ghp_test", "GITHUB_TOKEN is sent");
      assert.equal(r.headers.get("x-github-api-version"), "2022-11-28");
      assert.ok(r.headers.get("user-agent"));
      assert.equal(r.ref, null, "no ref: the default branch");
    }

    assert.equal(model.requests.length, 1);
    assert.deepEqual(model.requests[0].body?.messages, [
      { role: "system", content: EXPLAIN_SYSTEM_PROMPT },
      {
        role: "user",
        content: "Repository: acme/rocket\nDescription: A tiny static web server.\n" +
          "Language: JavaScript\nTopics: http, static-site\nLicense: MIT\nStars: 1234\n\n" +
          "Top-level files: .github/, LICENSE, README.md, package.json, src/\n\n" +
          `Manifest (package.json):\n${PACKAGE_JSON.trim()}\n\nREADME:\n${README.trim()}`,
      },
    ]);
  }, { token: "ghp_test" });
});

Deno.test("explain: no README still explains from metadata, files and manifest", async () => {
  await withSetup(async ({ app, github, model }) => {
    const res = await explain(app, "https://github.com/acme/bare");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      repo: "acme/bare",
      description: null,
      language: "Go",
      stars: 0,
      topics: [],
      license: "Other",
      defaultBranch: "main",
      files: ["go.mod", "main.go"],
      summary: "It serves sites.",
      digest: {
        about: null,
        topics: [],
        languages: ["Go"],
        stack: [{
          file: "go.mod",
          ecosystem: "go",
          language: "Go",
          name: "example.com/bare",
          version: "go 1.22",
          dependencies: [],
          devDependencies: [],
        }],
        entryPoints: ["main.go"],
        run: [
          { command: "go build ./...", runs: null },
          { command: "go run .", runs: null },
          { command: "go test ./...", runs: null },
        ],
        readmeIntro: null,
        tree: ["go.mod", "main.go"],
      },
      tokens: topLevelTokens(NO_README.files!),
    });
    const sent = model.requests[0].body?.messages?.[1].content ?? "";
    assert.equal(
      sent,
      "Repository: acme/bare\nLanguage: Go\nLicense: Other\nStars: 0\n\n" +
        "Top-level files: go.mod, main.go\n\nManifest (go.mod):\nmodule example.com/bare\n\ngo 1.22",
    );
    assert.ok(!sent.includes("README"));
    assert.equal(github.requests[0].headers.get("authorization"), null, "no token, no header");
  });
});

Deno.test('explain: an empty repository with no description is "No content.", model not called', async () => {
  await withSetup(async ({ app, model }) => {
    const res = await explain(app, "https://github.com/acme/empty");
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.summary, "No content.");
    assert.deepEqual(body.files, []);
    assert.equal(res.headers.get("x-ai-model"), null);
    assert.equal(model.requests.length, 0);
  });
});

Deno.test("explain: the gathered text is capped at 6000 characters", async () => {
  await withSetup(async ({ app, model }) => {
    const res = await explain(app, "https://github.com/acme/long");
    assert.equal(res.status, 200);
    const sent = model.requests[0].body?.messages?.[1].content ?? "";
    assert.equal(sent.length, 6000);
    assert.ok(sent.startsWith("Repository: acme/long\nDescription: Long readme."));
    assert.ok(sent.includes("README:\nLong line of words."));
  });
});

Deno.test('explain: an empty or missing completion is "Unable to generate summary."', async () => {
  await withSetup(async ({ app }) => {
    const res = await explain(app, "https://github.com/acme/rocket");
    assert.equal(res.status, 200);
    assert.equal((await res.json()).summary, "Unable to generate summary.");
  }, { behaviour: { kind: "empty" } });
});

Deno.test('explain: a missing repository is 404 NOT_FOUND "Repository not found"', async () => {
  await withSetup(async ({ app, github, model }) => {
    const res = await explain(app, "https://github.com/acme/nothing-here");
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: "Repository not found", code: "NOT_FOUND" });
    assert.deepEqual(github.requests.map((r) => r.path).sort(), [
      "/repos/acme/nothing-here",
      "/repos/acme/nothing-here/tarball",
    ]);
    assert.equal(model.requests.length, 0);

    const branch = await explain(app, "https://github.com/acme/rocket/tree/nope");
    assert.equal(branch.status, 404);
    assert.deepEqual(await branch.json(), { error: "Branch not found", code: "NOT_FOUND" });
  });
});

Deno.test("explain: a GitHub rate limit (403 or 429) is 502 FETCH_OR_AI_ERROR", async () => {
  await withSetup(async ({ app, github, model }) => {
    const res = await explain(app, "https://github.com/acme/rocket");
    assert.equal(res.status, 502);
    assert.deepEqual(await res.json(), {
      error: "GitHub API rate limit exceeded (resets at 2023-11-14T22:13:20.000Z)",
      code: "FETCH_OR_AI_ERROR",
    });
    github.setMode("too-many-requests");
    const many = await explain(app, "https://github.com/acme/rocket");
    assert.equal(many.status, 502);
    assert.deepEqual(await many.json(), {
      error: "GitHub API rate limit exceeded",
      code: "FETCH_OR_AI_ERROR",
    });
    github.setMode("error");
    const broken = await explain(app, "https://github.com/acme/rocket");
    assert.deepEqual(await broken.json(), {
      error: "GitHub API responded HTTP 500: Server Error",
      code: "FETCH_OR_AI_ERROR",
    });
    assert.equal(model.requests.length, 0);
  }, { mode: "rate-limited" });
});

Deno.test("explain: a GitHub API that hangs or is down is 502 FETCH_OR_AI_ERROR", async () => {
  await withSetup(async ({ app, github }) => {
    const res = await endedByDeadline(explain(app, "https://github.com/acme/rocket"), 200);
    assert.equal(res.status, 502);
    assert.deepEqual(await res.json(), {
      error: `GitHub API (${new URL(github.apiUrl).host}) timed out after 200 ms`,
      code: "FETCH_OR_AI_ERROR",
    });
  }, { mode: "hang", fetchTimeoutMs: 200 });

  const down = startGithubFake([]);
  const apiUrl = down.apiUrl;
  await down.close();
  const app = createApp({
    fetchPolicy: openPolicy(),
    AI: extractiveAi(),
    github: { apiUrl },
  }, { log: () => {} });
  const res = await explain(app, "https://github.com/acme/rocket");
  assert.equal(res.status, 502);
  const body = await res.json();
  assert.equal(body.code, "FETCH_OR_AI_ERROR");
  assert.equal(
    body.error,
    `GitHub API request failed: ${
      new URL(apiUrl).host
    }: connection refused (nothing listens there)`,
  );
});

Deno.test("explain: a model 500 or hang is 502 FETCH_OR_AI_ERROR", async () => {
  await withSetup(async ({ app, model }) => {
    const res = await explain(app, "https://github.com/acme/rocket");
    assert.equal(res.status, 502);
    assert.deepEqual(await res.json(), {
      error: "AI model request failed: HTTP 500: out of memory",
      code: "FETCH_OR_AI_ERROR",
    });
    model.behave({ kind: "hang" });
    const hung = await endedByDeadline(explain(app, "https://github.com/acme/rocket"), 300);
    assert.deepEqual(await hung.json(), {
      error: `AI model at ${new URL(model.origin).host} timed out after 300 ms`,
      code: "FETCH_OR_AI_ERROR",
    });
  }, { behaviour: { kind: "status", status: 500, error: "out of memory" } });
});

Deno.test("explain: the URL forms that are accepted all read the same repository", async () => {
  await withSetup(async ({ app, github }) => {
    for (
      const url of [
        "https://github.com/acme/rocket",
        "https://github.com/acme/rocket.git",
        "https://github.com/acme/rocket/",
        "http://github.com/acme/rocket",
        "https://www.github.com/acme/rocket",
        "https://github.com/acme/rocket/blob/main/src/index.js",
        "https://github.com/ACME/Rocket?tab=readme-ov-file",
      ]
    ) {
      github.requests.length = 0;
      const res = await explain(app, url);
      assert.equal(res.status, 200, url);
      assert.equal((await res.json()).repo, "acme/rocket", url);
      assert.ok(github.requests.every((r) => r.ref === null), url);
    }
    github.requests.length = 0;
    const branch = await explain(app, "https://github.com/acme/rocket/tree/dev");
    assert.equal(branch.status, 200);
    assert.deepEqual(
      github.requests.filter((r) => r.path !== "/repos/acme/rocket" && !r.path.includes("tarball"))
        .map((r) => r.ref),
      ["dev", "dev", "dev"],
      "readme, contents and manifest read at the branch",
    );
    assert.ok(github.requests.some((r) => r.path === "/repos/acme/rocket/tarball/dev"));
  });
});

Deno.test("explain: other URLs are 400 INVALID_URL and GitHub is never asked", async () => {
  await withSetup(async ({ app, github, model }) => {
    for (
      const url of [
        "https://gitlab.com/acme/rocket",
        "https://github.com/acme",
        "https://github.com/",
        "https://github.com/orgs/acme",
        "https://gist.github.com/acme/rocket",
        "https://example.com/acme/rocket",
      ]
    ) {
      const res = await explain(app, url);
      assert.equal(res.status, 400, url);
      assert.deepEqual(await res.json(), {
        error: "Not a GitHub repository URL",
        code: "INVALID_URL",
      });
    }
    for (
      const query of [
        "",
        "?url=",
        "?url=github.com%2Facme%2Frocket",
        "?url=git%3A%2F%2Fgithub.com%2Fa%2Fb",
      ]
    ) {
      const res = await app.request(`/explain${query}`);
      assert.equal(res.status, 400, query);
      assert.deepEqual(await res.json(), { error: "Missing or invalid url", code: "INVALID_URL" });
    }
    assert.equal(github.requests.length, 0);
    assert.equal(model.requests.length, 0);
  });
});

Deno.test("explain: without a model the digest answers, labelled as not a model's", async () => {
  await withSetup(async ({ app, model }) => {
    const res = await explain(app, "https://github.com/acme/rocket");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-ai-model"), "digest (no model)");
    const body = await res.json();
    assert.deepEqual(body.digest, ROCKET_DIGEST);
    assert.equal(
      body.summary,
      [
        "Digest (no model) of acme/rocket",
        "What it is: A tiny static web server.",
        "Topics: http, static-site",
        "Languages: JavaScript",
        "Stack: npm package rocket 1.4.0 (package.json); depends on express",
        "Entry points: src/index.js (scripts.start)",
        "How to run: npm install; npm start (node src/index.js); npm test (node --test)",
        "From the README: Rocket is a tiny web server that serves static sites with zero " +
        "configuration.",
        "Top level: .github/, LICENSE, README.md, package.json, src/",
      ].join("\n"),
    );
    assert.doesNotMatch(body.summary, /"start":|\{/, "no raw manifest lines");
    assert.equal(model.requests.length, 0);
  }, { ai: extractiveAi() });
});

Deno.test("explain: every manifest present is read (deno.jsonc with comments, Makefile, requirements.txt)", async () => {
  await withSetup(async ({ app, github }) => {
    const res = await explain(app, "https://github.com/acme/comet");
    assert.equal(res.status, 200);
    const { digest, summary } = await res.json();
    assert.deepEqual(
      github.requests.map((r) => r.path).filter((p) => p.includes("/contents/")).sort(),
      [
        "/repos/acme/comet/contents/Makefile",
        "/repos/acme/comet/contents/deno.jsonc",
        "/repos/acme/comet/contents/requirements.txt",
      ],
    );
    assert.deepEqual(digest.stack.map((s: { file: string }) => s.file), [
      "deno.jsonc",
      "requirements.txt",
      "Makefile",
    ]);
    assert.deepEqual(digest.stack[0].dependencies, ["hono", "@std/assert"]);
    assert.deepEqual(digest.stack[1].dependencies, ["mkdocs", "mkdocs-material"]);
    assert.deepEqual(digest.languages, ["TypeScript", "Python"]);
    assert.deepEqual(digest.entryPoints, ["main.ts (task dev)"]);
    assert.deepEqual(digest.run.map((r: { command: string }) => r.command), [
      "deno task dev",
      "deno task test",
      "pip install -r requirements.txt",
      "make build",
    ]);
    // The logo and the badge row are skipped; the first prose paragraph loses its markup.
    assert.equal(
      digest.readmeIntro,
      "Comet is a small Hono service that answers /ping from the edge, with no build step.",
    );
    assert.equal(digest.about, digest.readmeIntro, "no description: the README says what it is");
    assert.match(summary, /^Digest \(no model\) of acme\/comet\nWhat it is: Comet is/);
    assert.doesNotMatch(summary, /From the README/, "not repeated when it is the description");
  }, { ai: extractiveAi() });
});

Deno.test("explain: the route is described in /openapi.json", async () => {
  const app = createApp(
    { fetchPolicy: openPolicy(), AI: extractiveAi(), github: { apiUrl: "http://127.0.0.1:9" } },
    { log: () => {} },
  );
  const doc = await (await app.request("/openapi.json")).json();
  const op = doc.paths["/explain"].get;
  const url = op.parameters.find((p: { name: string }) => p.name === "url");
  assert.match(url.description ?? url.schema?.description ?? "", /GitHub/);
  assert.ok(
    op.parameters.some((p: { name: string; in: string }) =>
      p.name.toLowerCase() === "authorization" && p.in === "header"
    ),
  );
  assert.ok(doc.components.schemas.TokenReport);
  for (const status of ["200", "400", "404", "502"]) assert.ok(op.responses[status], status);
});
