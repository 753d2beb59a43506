/**
 * `GET /digest` end to end against the fake GitHub (its tarball redirect and codeload host),
 * and a caller's token for a private repository on `/digest` and `/explain`.
 */
import assert from "node:assert/strict";
import { loadO200k } from "../../functions/repo-explainer/o200k.ts";
import { createApp } from "../../functions/repo-explainer/app.ts";
import { section } from "../../functions/repo-explainer/repo_text.ts";
import { extractiveAi } from "../../shared/bindings/ai/mod.ts";
import {
  FAKE_COMMIT,
  type FakeRepo,
  PRIVATE_TOKEN,
  startGithubFake,
} from "../support/github_fake.ts";
import { openPolicy } from "../support/policy.ts";

const { count: countTokens } = await loadO200k();

const BIG = "export const big = [\n" + "  'some words in a list',\n".repeat(300) + "];\n";

const ATLAS: FakeRepo = {
  owner: "acme",
  name: "atlas",
  defaultBranch: "main",
  branches: ["v1.0", "feature/x"],
  files: { "README.md": "# Atlas\n", "src": null },
  tree: {
    "README.md": "# Atlas\n\nMaps things.\n",
    "src/index.ts": "export const answer = 42;\n",
    "src/big.ts": BIG,
    "src/util/strings.ts": "export const trim = (s: string) => s.trim();\n",
    "package-lock.json": '{"lockfileVersion": 3}\n',
    "public/app.min.js": "var a=1;",
    "node_modules/left-pad/index.js": "module.exports = 1;\n",
    "docs/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
    "data/blob.txt": new Uint8Array([0x41, 0, 0x42]),
  },
};

const SECRET: FakeRepo = {
  owner: "acme",
  name: "secret",
  private: true,
  description: "Private things.",
  files: { "main.go": "package main\n" },
  readme: "# Secret\n",
};

async function withApp(
  fn: (
    app: ReturnType<typeof createApp>,
    github: ReturnType<typeof startGithubFake>,
  ) => Promise<void>,
  logs: unknown[] = [],
) {
  const github = startGithubFake([ATLAS, SECRET]);
  const app = createApp(
    { fetchPolicy: openPolicy(), AI: extractiveAi(), github: { apiUrl: github.apiUrl } },
    { log: (line) => logs.push(line) },
  );
  try {
    await fn(app, github);
  } finally {
    await github.close();
  }
}

function digest(app: ReturnType<typeof createApp>, query: string, init?: RequestInit) {
  return app.request(
    `/digest?url=${encodeURIComponent("https://github.com/acme/atlas")}${query}`,
    init,
  );
}

Deno.test("digest: tree then files, generated, vendored and binary files left out, counted", async () => {
  await withApp(async (app, github) => {
    const res = await digest(app, "");
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.repo, "acme/atlas");
    assert.equal(body.ref, "main");
    assert.equal(body.commit, FAKE_COMMIT);
    assert.equal(body.truncated, null);
    const kept = ["README.md", "src/big.ts", "src/index.ts", "src/util/strings.ts"];
    assert.deepEqual(body.tokens.files.map((f: { path: string }) => f.path), kept);
    for (const f of body.tokens.files) {
      const text = ATLAS.tree![f.path] as string;
      assert.equal(f.tokens, countTokens(section(f.path, text)), f.path);
    }
    const src = body.tokens.files.filter((f: { path: string }) => f.path.startsWith("src/"))
      .reduce((n: number, f: { tokens: number }) => n + f.tokens, 0);
    assert.deepEqual(body.tokens.directories[0], { path: "src/", tokens: src });
    assert.equal(body.tokens.total, countTokens(body.content), "total is the content's count");
    assert.deepEqual(
      Object.fromEntries(
        body.omitted.map((o: { path: string; reason: string }) => [o.path, o.reason]),
      ),
      {
        "package-lock.json": "generated",
        "public/app.min.js": "generated",
        "node_modules/left-pad/index.js": "vendored",
        "docs/logo.png": "binary",
        "data/blob.txt": "binary",
      },
    );
    const content: string = body.content;
    assert.ok(content.startsWith(`Repository: acme/atlas\nRef: main\nCommit: ${FAKE_COMMIT}\n`));
    assert.ok(content.indexOf("Directory structure:") < content.indexOf("FILE: README.md"));
    assert.ok(content.includes("src/\n  big.ts\n  index.ts\n  util/\n    strings.ts\n"));
    assert.ok(content.includes("FILE: src/index.ts\n" + "=".repeat(48) + "\nexport const answer"));
    assert.ok(!content.includes("left-pad"));
    assert.equal(github.downloads[0].headers.get("authorization"), null);
  });
});

Deno.test("digest: maxTokens drops the largest files first and says which", async () => {
  await withApp(async (app) => {
    const full = await (await digest(app, "")).json();
    const limit = full.tokens.total - 10;
    const res = await digest(app, `&maxTokens=${limit}`);
    const body = await res.json();
    assert.equal(body.maxTokens, limit);
    assert.ok(body.tokens.total <= limit);
    const dropped = body.omitted.filter((o: { reason: string }) => o.reason === "max-tokens");
    assert.deepEqual(dropped.map((o: { path: string }) => o.path), ["src/big.ts"]);
    assert.ok(dropped[0].tokens > 1000);
    assert.ok(!body.content.includes("some words in a list"));
  });
});

Deno.test("digest: include and exclude narrow it, ref picks the tree", async () => {
  await withApp(async (app, github) => {
    const body = await (await digest(app, "&include=src/**&include=*.md&exclude=big.ts&ref=v1.0"))
      .json();
    assert.equal(body.ref, "v1.0");
    assert.deepEqual(
      body.tokens.files.map((f: { path: string }) => f.path),
      ["README.md", "src/index.ts", "src/util/strings.ts"],
    );
    assert.ok(github.requests.some((r) => r.path === "/repos/acme/atlas/tarball/v1.0"));
    const slash = await digest(app, "&ref=feature/x");
    assert.equal(slash.status, 200);
    assert.ok(github.requests.some((r) => r.path === "/repos/acme/atlas/tarball/feature/x"));
  });
});

Deno.test("digest: bad input is 400 and GitHub is never asked; unknown refs are 404", async () => {
  await withApp(async (app, github) => {
    for (
      const q of [
        "&maxTokens=0",
        "&maxTokens=2000001",
        "&maxTokens=ten",
        "&ref=../../x",
        "&ref=a%20b",
        `&include=${"a".repeat(201)}`,
        "&exclude=" + Array.from({ length: 21 }, (_, i) => `e${i}`).join("&exclude="),
      ]
    ) {
      const res = await digest(app, q);
      assert.equal(res.status, 400, q);
      assert.equal((await res.json()).code, "INVALID_INPUT", q);
    }
    const notRepo = await app.request("/digest?url=https://gitlab.com/a/b");
    assert.equal(notRepo.status, 400);
    assert.equal((await notRepo.json()).code, "INVALID_URL");
    assert.equal(github.requests.length, 0);
    const ref = await digest(app, "&ref=nope");
    assert.equal(ref.status, 404);
    assert.deepEqual(await ref.json(), { error: "Ref not found", code: "NOT_FOUND" });
  });
});

Deno.test("private repository: 404 without a token, read with the caller's, never kept", async () => {
  const logs: unknown[] = [];
  await withApp(async (app, github) => {
    const url = `/digest?url=${encodeURIComponent("https://github.com/acme/secret")}`;
    const anonymous = await app.request(url);
    assert.equal(anonymous.status, 404);
    assert.deepEqual(await anonymous.json(), { error: "Repository not found", code: "NOT_FOUND" });
    assert.equal(anonymous.headers.get("vary"), "Authorization");

    const auth = { headers: { authorization: `Bearer ${PRIVATE_TOKEN}` } };
    const res = await app.request(url, auth);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "private, no-store");
    assert.equal(res.headers.get("vary"), "Authorization");
    const body = await res.json();
    assert.deepEqual(body.tokens.files.map((f: { path: string }) => f.path), ["main.go"]);

    const explain = await app.request(
      `/explain?url=${encodeURIComponent("https://github.com/acme/secret")}`,
      auth,
    );
    assert.equal(explain.status, 200);
    assert.equal((await explain.json()).description, "Private things.");
    assert.equal(explain.headers.get("cache-control"), "private, no-store");

    // The same request without the token again: nothing of the previous answer survives.
    const after = await app.request(url);
    assert.equal(after.status, 404);

    for (const r of github.requests) {
      const sent = r.headers.get("authorization");
      assert.ok(sent === null || sent === `Bearer ${PRIVATE_TOKEN}`);
    }
    assert.ok(github.downloads.length > 0);
    for (const d of github.downloads) assert.equal(d.headers.get("authorization"), null);

    const bad = await app.request(url, { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, "INVALID_INPUT");
  }, logs);
  assert.ok(logs.length > 0);
  assert.ok(!JSON.stringify(logs).includes(PRIVATE_TOKEN), "the token is never logged");
});

Deno.test("digest: the route and its schemas are in /openapi.json", async () => {
  await withApp(async (app) => {
    const doc = await (await app.request("/openapi.json")).json();
    const op = doc.paths["/digest"].get;
    const names = op.parameters.map((p: { name: string }) => p.name);
    for (const n of ["url", "ref", "include", "exclude", "maxTokens", "authorization"]) {
      assert.ok(names.includes(n), n);
    }
    assert.ok(doc.components.schemas.RepoDigest);
    for (const status of ["200", "400", "404", "502"]) assert.ok(op.responses[status], status);
  });
});
