/**
 * The edge suite (what a deployment runs): every experiment's bundle, built once for the run into a folder
 * with no deno.json and no node_modules, started under the edge permissions
 * (`--deny-write --deny-run --deny-ffi`) with remote bindings on loopback: libSQL over Hrana
 * (tests/support/hrana_server.ts), the Upstash fake, s3rver, a Chromium with
 * `--remote-debugging-port`, the OpenAI-compatible fake and the GitHub fake. Each experiment's
 * main route runs end to end, and each remote binding that is down at start-up leaves the
 * service starting, `GET /` 200 and the route answering the contract's error.
 *
 * The cases run a few at a time (each in its own process); the services start in parallel.
 * For working on one case: `EDGE_ONLY=<part of its name>` runs the cases whose name has it, and
 * `EDGE_BUNDLES_DIR=<folder>` uses bundles built there (`build()`) instead of building.
 */
import assert from "node:assert/strict";
import { SLUGS } from "../../scripts/experiments.ts";
import { DOCS_ASSETS } from "../../shared/contract/docs.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { FAKE_MODEL, startOpenAiFake } from "../support/openai_fake.ts";
import { startGithubFake } from "../support/github_fake.ts";
import { startUpstashFake } from "../support/upstash_fake.ts";
import { S3RVER_CREDENTIALS, startS3rver } from "../support/s3rver.ts";
import { startRemoteChromium } from "../support/remote_chromium.ts";
import { startHranaServer } from "../support/hrana_server.ts";
import { CHROME_PATH, IN_CI } from "../screenshot/chromium.ts";
import { buildBundles, type BundleProcess, downOrigin, startBundle } from "./bundle_process.ts";

/** Cases running at once (each is one bundle process; the machine may have 2 cores). */
const PARALLEL = 3;
const SUMMARY = "The fake model's summary of the page.";
const PRIVATE_BUCKET = "edge-private";
const PUBLIC_BUCKET = "edge-public";
const PUBLIC_BUCKET_URL = "https://cdn.example.test/files";

/** One case: an experiment's bundle with some environment, and what it must answer. */
interface EdgeCase {
  name: string;
  slug: string;
  /** Needs the remote Chromium. */
  chromium?: boolean;
  run(env: Services): Promise<void>;
}

/** The remote services of the run. */
interface Services {
  dir: string;
  fixtures: ReturnType<typeof startFixtureServer>;
  model: ReturnType<typeof startOpenAiFake>;
  github: ReturnType<typeof startGithubFake>;
  upstash: Awaited<ReturnType<typeof startUpstashFake>>;
  s3: Awaited<ReturnType<typeof startS3rver>>;
  chromium: Awaited<ReturnType<typeof startRemoteChromium>> | null;
  hrana: { url: string; close(): Promise<void> } | Error;
}

/** Starts a bundle, runs `fn` against it, stops it; on failure the bundle's log is attached. */
async function withBundle(
  s: Services,
  slug: string,
  env: Record<string, string>,
  fn: (p: BundleProcess) => Promise<void>,
): Promise<void> {
  const p = await startBundle(s.dir, slug, env);
  try {
    await fn(p);
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : err}\n--- ${slug} log:\n${p.log()}`);
  } finally {
    await p.stop();
  }
}

/** `GET /` answers the root document of `slug`: the service is up. */
async function assertRoot(p: BundleProcess, slug: string): Promise<void> {
  const res = await fetch(`${p.origin}/`);
  assert.equal(res.status, 200);
  assert.equal((await res.json()).name, slug);
}

/** The response is the contract's error with this status and code. */
async function assertError(res: Response, status: number, code: string): Promise<void> {
  const body = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code, JSON.stringify(body));
  assert.equal(typeof body.error, "string");
  assert.doesNotMatch(body.error, /\n\s+at |file:\/\//, "no stack or path in the message");
}

const q = (url: string) => encodeURIComponent(url);
const OPEN = { ALLOW_PRIVATE_NETWORKS: "true" };
const s3Env = (endpoint: string) => ({
  S3_ENDPOINT: endpoint,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
  BUCKET: PRIVATE_BUCKET,
  PUBLIC_BUCKET,
  PUBLIC_BUCKET_URL,
});
const hranaUrl = (s: Services) => {
  if (s.hrana instanceof Error) throw s.hrana;
  return s.hrana.url;
};

const CASES: EdgeCase[] = [
  {
    name: "dependency-analyzer: GET /analyze of a Next.js page",
    slug: "dependency-analyzer",
    async run(s) {
      const page = s.fixtures.url("/pages/nextjs.html");
      const expected = JSON.parse(
        await Deno.readTextFile(
          new URL("../dependency-analyzer/expected/nextjs.html.json", import.meta.url),
        ),
      );
      await withBundle(s, this.slug, OPEN, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/analyze?url=${q(page)}`);
        const body = await res.json();
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.finalUrl, page);
        assert.deepEqual(
          body.scripts.map((x: { src: string | null }) => x.src),
          expected.scripts.map((x: { src: string | null }) =>
            x.src?.replace("{origin}", s.fixtures.origin) ?? null
          ),
        );
        // The MCP endpoint loads its SDK from the bundle's chunks, under the edge permissions.
        const call = await fetch(`${p.origin}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "analyze_page", arguments: { url: page } },
          }),
        });
        const answer = await call.json();
        assert.equal(call.status, 200, JSON.stringify(answer));
        assert.equal(answer.result.structuredContent.finalUrl, page);
        // The guard holds in the bundle too: a loopback URL is refused without the override.
      });
      await withBundle(s, this.slug, {}, async (p) => {
        await assertError(await fetch(`${p.origin}/analyze?url=${q(page)}`), 400, "INVALID_URL");
      });
    },
  },
  {
    name: "metadata-extractor: GET /metadata, /openapi.json and /docs without node_modules",
    slug: "metadata-extractor",
    async run(s) {
      await withBundle(s, this.slug, OPEN, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(
          `${p.origin}/metadata?url=${q(s.fixtures.url("/pages/blog.html"))}`,
        );
        const body = await res.json();
        assert.equal(res.status, 200, JSON.stringify(body));
        const html = await Deno.readTextFile(
          new URL("../fixtures/pages/blog.html", import.meta.url),
        );
        const ogTitle = html.match(/property="og:title" content="([^"]+)"/)?.[1]?.trim();
        assert.ok(ogTitle);
        assert.equal(body.title, ogTitle);
        const doc = await fetch(`${p.origin}/openapi.json`);
        assert.equal(doc.status, 200);
        assert.ok((await doc.json()).paths["/metadata"]);
        for (const name of DOCS_ASSETS) {
          const file = await fetch(`${p.origin}/docs/${name}`);
          assert.equal(file.status, 200, name);
          const bytes = new Uint8Array(await file.arrayBuffer());
          assert.deepEqual(bytes, await Deno.readFile(`${s.dir}/${name}`), name);
        }
      });
    },
  },
  {
    name: "devtools-inspector: GET /inspect of a page",
    slug: "devtools-inspector",
    async run(s) {
      const expected = JSON.parse(
        await Deno.readTextFile(
          new URL("../devtools-inspector/expected/blog.html.json", import.meta.url),
        ),
      );
      await withBundle(s, this.slug, OPEN, async (p) => {
        await assertRoot(p, this.slug);
        const page = s.fixtures.url("/pages/blog.html");
        const res = await fetch(`${p.origin}/inspect?url=${q(page)}`);
        const body = await res.json();
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.deepEqual(Object.keys(body).sort(), Object.keys(expected).sort());
      });
    },
  },
  {
    name: "ai-summary: GET /summary through an OpenAI-compatible endpoint",
    slug: "ai-summary",
    async run(s) {
      const env = { ...OPEN, AI_BASE_URL: s.model.origin };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const before = s.model.requests.length;
        const article = s.fixtures.url("/articles/solar_sails.html");
        const res = await fetch(`${p.origin}/summary?url=${q(article)}`);
        const body = await res.json();
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.summary, SUMMARY);
        assert.equal(res.headers.get("x-ai-model"), FAKE_MODEL);
        const sent = s.model.requests.slice(before).at(-1)?.body?.messages ?? [];
        assert.match(sent.map((m) => m.content).join("\n"), /sail/i);
        // The reader route: Markdown from the bundle (node-html-markdown, dom-serializer).
        const read = await fetch(`${p.origin}/read?url=${q(article)}`);
        const page = await read.json();
        assert.equal(read.status, 200, JSON.stringify(page));
        assert.equal(page.format, "markdown");
        assert.match(page.content, /\n## Building a sail\n/);
      });
    },
  },
  {
    name: "ai-summary: model unreachable at start-up",
    slug: "ai-summary",
    async run(s) {
      const env = { ...OPEN, AI_BASE_URL: downOrigin() };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const article = s.fixtures.url("/articles/solar_sails.html");
        const res = await fetch(`${p.origin}/summary?url=${q(article)}`);
        await assertError(res, 502, "FETCH_OR_AI_ERROR");
      });
    },
  },
  {
    name: "repo-explainer: GET /explain through the GitHub API and the model",
    slug: "repo-explainer",
    async run(s) {
      const env = {
        ...OPEN,
        AI_BASE_URL: s.model.origin,
        GITHUB_API_URL: s.github.apiUrl,
        GITHUB_TOKEN: "edge-token",
      };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/explain?url=${q("https://github.com/acme/rocket")}`);
        const body = await res.json();
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.summary, SUMMARY);
        assert.ok(body.tokens?.total > 0, "the tokenizer and the tar reader load in the bundle");
        const digest = await fetch(`${p.origin}/digest?url=${q("https://github.com/acme/rocket")}`);
        const text = await digest.json();
        assert.equal(digest.status, 200, JSON.stringify(text));
        assert.match(text.content, /FILE: package\.json/);
        const seen = s.github.requests.filter((r) => r.path.startsWith("/repos/acme/rocket"));
        assert.ok(seen.length > 0);
        assert.ok(seen.some((r) => r.headers.get("authorization")?.includes("edge-token")));
      });
    },
  },
  {
    name: "repo-explainer: model unreachable at start-up",
    slug: "repo-explainer",
    async run(s) {
      const env = { ...OPEN, AI_BASE_URL: downOrigin(), GITHUB_API_URL: s.github.apiUrl };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/explain?url=${q("https://github.com/acme/rocket")}`);
        await assertError(res, 502, "FETCH_OR_AI_ERROR");
      });
    },
  },
  {
    name: "screenshot: GET /screenshot on a remote Chromium (BROWSER_WS_ENDPOINT)",
    slug: "screenshot",
    chromium: true,
    async run(s) {
      const env = { ...OPEN, BROWSER_WS_ENDPOINT: s.chromium!.endpoint };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const page = s.fixtures.url("/screenshot/solid.html");
        const res = await fetch(`${p.origin}/screenshot?url=${q(page)}&width=320&height=200`);
        const png = new Uint8Array(await res.arrayBuffer());
        assert.equal(res.status, 200, new TextDecoder().decode(png.slice(0, 300)));
        assert.equal(res.headers.get("content-type"), "image/png");
        assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
        assert.ok(s.fixtures.hits("/screenshot/solid.html") > 0);
        // The packaged filter engines load from the bundle's own chunks.
        const blocked = await fetch(
          `${p.origin}/screenshot?url=${q(page)}&width=320&height=200&format=pdf` +
            "&blockAds=true&hideCookieBanners=true",
        );
        const pdf = new Uint8Array(await blocked.arrayBuffer());
        assert.equal(blocked.status, 200, new TextDecoder().decode(pdf.slice(0, 300)));
        assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
      });
    },
  },
  {
    name: "screenshot: browser unreachable at start-up",
    slug: "screenshot",
    async run(s) {
      const env = { ...OPEN, BROWSER_WS_ENDPOINT: `${downOrigin().replace("http", "ws")}/x` };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const page = s.fixtures.url("/screenshot/solid.html");
        await assertError(
          await fetch(`${p.origin}/screenshot?url=${q(page)}`),
          502,
          "SCREENSHOT_ERROR",
        );
      });
    },
  },
  {
    name: "link-shortener: POST /shorten and GET /:code on libSQL over Hrana and Upstash",
    slug: "link-shortener",
    async run(s) {
      const env = {
        DB_URL: hranaUrl(s),
        UPSTASH_REDIS_REST_URL: s.upstash.url,
        UPSTASH_REDIS_REST_TOKEN: s.upstash.token,
      };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const target = "https://example.com/edge/a/long/path";
        const created = await fetch(`${p.origin}/shorten`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ url: target }),
        });
        const link = await created.json();
        assert.equal(created.status, 201, JSON.stringify(link));
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${p.origin}/${link.code}`, { redirect: "manual" });
          await res.body?.cancel();
          assert.equal(res.status, 302);
          assert.equal(res.headers.get("location"), target);
        }
        // Read through the cache: the code was put in Upstash after the database answered.
        assert.ok(s.upstash.commands.some((c) => c[0] === "SET" && c.join(" ").includes(target)));
      });
    },
  },
  {
    name: "link-shortener: database unreachable at start-up",
    slug: "link-shortener",
    async run(s) {
      const env = {
        DB_URL: downOrigin(),
        UPSTASH_REDIS_REST_URL: s.upstash.url,
        UPSTASH_REDIS_REST_TOKEN: s.upstash.token,
      };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/shorten`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ url: "https://example.com/" }),
        });
        await assertError(res, 500, "DATABASE_ERROR");
      });
    },
  },
  {
    name: "link-shortener: no DB_URL in a deployment: DATABASE_ERROR naming it",
    slug: "link-shortener",
    async run(s) {
      await withBundle(s, this.slug, {}, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/shorten`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ url: "https://example.com/" }),
        });
        const body = await res.clone().json();
        await assertError(res, 500, "DATABASE_ERROR");
        assert.match(body.error, /set DB_URL/);
      });
    },
  },
  {
    name: "link-shortener: cache unreachable at start-up (redirects from the database)",
    slug: "link-shortener",
    async run(s) {
      const env = {
        DB_URL: hranaUrl(s),
        UPSTASH_REDIS_REST_URL: downOrigin(),
        UPSTASH_REDIS_REST_TOKEN: "t",
      };
      await withBundle(s, this.slug, env, async (p) => {
        await assertRoot(p, this.slug);
        const target = "https://example.com/edge/cache-down";
        const created = await fetch(`${p.origin}/shorten`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ url: target }),
        });
        const link = await created.json();
        assert.ok([200, 201].includes(created.status), JSON.stringify(link));
        const res = await fetch(`${p.origin}/${link.code}`, { redirect: "manual" });
        await res.body?.cancel();
        assert.equal(res.status, 302);
        assert.equal(res.headers.get("location"), target);
      });
    },
  },
  {
    name: "object-storage: PUT/GET /object, a public upload and GET /public/<key> on s3rver",
    slug: "object-storage",
    async run(s) {
      const signing = {
        OBJECT_SIGNING_KEY: "edge-signing-key-0123456789abcdef012345",
        OBJECT_ADMIN_TOKEN: "edge-admin-token-0123",
      };
      await withBundle(s, this.slug, { ...s3Env(s.s3.endpoint), ...signing }, async (p) => {
        await assertRoot(p, this.slug);
        // The document first: its chunks alone must give zod its `.openapi()`.
        const doc = await fetch(`${p.origin}/openapi.json`);
        assert.equal(doc.status, 200);
        assert.ok((await doc.json()).paths["/object/signed"]);
        // A signed PUT link (WebCrypto HMAC in the bundle), then the upload through it.
        const sign = await fetch(`${p.origin}/object/sign`, {
          method: "POST",
          headers: { authorization: `Bearer ${signing.OBJECT_ADMIN_TOKEN}` },
          body: JSON.stringify({
            key: "edge/signed.txt",
            method: "PUT",
            expiresIn: 60,
            maxBytes: 5,
          }),
        });
        const link = await sign.json();
        assert.equal(sign.status, 200, JSON.stringify(link));
        const over = await fetch(link.url, { method: "PUT", body: "too long" });
        assert.equal(over.status, 413, await over.text());
        const through = await fetch(link.url, { method: "PUT", body: "fits!" });
        assert.equal(through.status, 200, await through.text());

        const bytes = crypto.getRandomValues(new Uint8Array(60_000));
        const put = await fetch(`${p.origin}/object?key=edge/a.bin`, {
          method: "PUT",
          headers: { "content-type": "application/x-edge" },
          body: bytes,
        });
        assert.equal(put.status, 200, await put.clone().text());
        assert.deepEqual(await put.json(), { key: "edge/a.bin", uploaded: true });
        const got = await fetch(`${p.origin}/object?key=edge/a.bin`);
        assert.equal(got.status, 200);
        assert.equal(got.headers.get("content-type"), "application/x-edge");
        assert.deepEqual(new Uint8Array(await got.arrayBuffer()), bytes);

        const pub = await fetch(`${p.origin}/object?key=edge/p.txt&public=true`, {
          method: "PUT",
          headers: { "content-type": "text/plain" },
          body: "public bytes",
        });
        const result = await pub.json();
        assert.equal(pub.status, 200, JSON.stringify(result));
        assert.equal(result.url, `${PUBLIC_BUCKET_URL}/edge/p.txt`);
        // With remote S3 the public copy is served by the store's public URL: a redirect.
        const served = await fetch(`${p.origin}/public/edge/p.txt`, { redirect: "manual" });
        await served.body?.cancel();
        assert.ok([301, 302, 307, 308].includes(served.status), `status ${served.status}`);
        assert.equal(served.headers.get("location"), `${PUBLIC_BUCKET_URL}/edge/p.txt`);
      });
    },
  },
  {
    name: "object-storage: bucket unreachable at start-up",
    slug: "object-storage",
    async run(s) {
      await withBundle(s, this.slug, s3Env(downOrigin()), async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/object?key=a.txt`, { method: "PUT", body: "x" });
        await assertError(res, 500, "STORAGE_ERROR");
        await assertError(await fetch(`${p.origin}/object?key=a.txt`), 500, "STORAGE_ERROR");
      });
    },
  },
  {
    name: "object-storage: no S3 in a deployment: STORAGE_ERROR naming the variables",
    slug: "object-storage",
    async run(s) {
      await withBundle(s, this.slug, {}, async (p) => {
        await assertRoot(p, this.slug);
        const res = await fetch(`${p.origin}/object?key=a.txt`, { method: "PUT", body: "x" });
        const body = await res.clone().json();
        await assertError(res, 500, "STORAGE_ERROR");
        assert.match(body.error, /set S3_ENDPOINT/);
      });
    },
  },
];

Deno.test("edge: the cases cover every experiment", () => {
  assert.deepEqual([...new Set(CASES.map((c) => c.slug))].sort(), [...SLUGS].sort());
});

Deno.test({
  name: "edge: every bundle under edge permissions with remote bindings on loopback",
  // The cases share processes and servers started here and stopped at the end.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    if (!CHROME_PATH && IN_CI) throw new Error("Chromium not found and CI=true (CHROME_PATH)");
    const dbDir = await Deno.makeTempDir({ prefix: "edge-hrana-" });
    const prebuilt = Deno.env.get("EDGE_BUNDLES_DIR");
    // Everything in parallel: the build, the fakes, s3rver, Chromium, the Hrana server.
    const [bundles, s3, upstash, chromium, hrana] = await Promise.all([
      prebuilt ? Promise.resolve({ dir: prebuilt, remove: async () => {} }) : buildBundles(),
      startS3rver([PRIVATE_BUCKET, PUBLIC_BUCKET]),
      startUpstashFake(),
      CHROME_PATH ? startRemoteChromium(CHROME_PATH) : Promise.resolve(null),
      startHranaServer({ path: `${dbDir}/links.db` }).catch((e) => e as Error),
    ]);
    const s: Services = {
      dir: bundles.dir,
      fixtures: startFixtureServer(),
      model: startOpenAiFake({ kind: "reply", content: SUMMARY }),
      github: startGithubFake([{
        owner: "acme",
        name: "rocket",
        description: "Launches static sites",
        language: "TypeScript",
        files: { "package.json": '{"name":"rocket"}', "src": null },
        readme: "# Rocket\n\nRocket builds and launches static sites.",
      }]),
      upstash,
      s3,
      chromium,
      hrana,
    };
    try {
      await t.step("the bundle folder has no deno.json and no node_modules", () => {
        const names = [...Deno.readDirSync(s.dir)].map((e) => e.name).sort();
        assert.deepEqual(
          names,
          [...SLUGS.flatMap((slug) => [slug, `${slug}.js`]), ...DOCS_ASSETS].sort(),
        );
      });
      const only = Deno.env.get("EDGE_ONLY");
      const queue = CASES.filter((c) => !only || c.name.includes(only));
      const worker = async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          const ignore = c.chromium === true && !s.chromium;
          if (ignore) console.warn(`SKIPPING "${c.name}": no Chromium found (set CHROME_PATH)`);
          const edgeCase = c;
          await t.step({
            name: c.name,
            ignore,
            sanitizeOps: false,
            sanitizeResources: false,
            sanitizeExit: false,
            fn: () => edgeCase.run(s),
          });
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    } finally {
      await Promise.allSettled([
        s.fixtures.close(),
        s.model.close(),
        s.github.close(),
        s.upstash.close(),
        s.s3.close(),
        s.chromium?.stop(),
        s.hrana instanceof Error ? undefined : s.hrana.close(),
        bundles.remove(),
      ]);
      await Deno.remove(dbDir, { recursive: true }).catch(() => {});
    }
  },
});
