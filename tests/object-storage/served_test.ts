/**
 * object-storage served over real HTTP (Deno.serve on 127.0.0.1) with the filesystem default:
 * public URLs that work as direct links, hostile `/public/` paths, a client that hangs up
 * mid-body, a failing folder, and the OpenAPI document.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../functions/object-storage/app.ts";
import { bindingsFromEnv } from "../../functions/object-storage/config.ts";
import { Env } from "../../shared/contract/config.ts";
import { listFiles } from "./backends.ts";

/** Serves the app over folder buckets in a temp dir, with PUBLIC_BUCKET_URL at its own /public. */
async function withServer(
  fn: (origin: string, root: string) => Promise<void>,
  vars: Record<string, string> = {},
) {
  const root = await Deno.makeTempDir({ prefix: "object-served-" });
  let origin = "";
  // The bindings need the origin (PUBLIC_BUCKET_URL), so the app is built on first request.
  let app: ReturnType<typeof createApp> | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    app ??= createApp(
      await bindingsFromEnv(
        new Env({ DATA_DIR: join(root, "data"), PUBLIC_BUCKET_URL: `${origin}/public`, ...vars }),
      ),
      { log: () => {} },
    );
    return app.fetch(req);
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    await fn(origin, root);
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a public upload's url serves the object directly", () =>
  withServer(async (origin) => {
    const key = "site/img/logo 1.svg";
    const put = await fetch(`${origin}/object?key=${encodeURIComponent(key)}&public=true`, {
      method: "PUT",
      headers: { "content-type": "image/svg+xml" },
      body: "<svg/>",
    });
    assert.equal(put.status, 200);
    const { url } = await put.json();
    assert.equal(url, `${origin}/public/site/img/logo%201.svg`);

    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/svg+xml");
    assert.equal(res.headers.get("content-length"), "6");
    assert.equal(res.headers.get("content-security-policy"), "sandbox");
    const etag = res.headers.get("etag")!;
    assert.equal(await res.text(), "<svg/>");
    const ranged = await fetch(url, { headers: { range: "bytes=1-3" } });
    assert.equal(ranged.status, 206);
    assert.equal(await ranged.text(), "svg");
    const cached = await fetch(url, { headers: { "if-none-match": etag } });
    assert.equal(cached.status, 304);
    await cached.body?.cancel();
    const head = await fetch(url, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), "6");
    await head.body?.cancel();
  }));

Deno.test("the private bucket has no direct URL", () =>
  withServer(async (origin) => {
    await (await fetch(`${origin}/object?key=secret.txt`, { method: "PUT", body: "s" })).body
      ?.cancel();
    const res = await fetch(`${origin}/public/secret.txt`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: "Object not found", code: "NOT_FOUND" });
  }));

Deno.test("hostile /public/ paths never serve a file", () =>
  withServer(async (origin, root) => {
    await Deno.writeTextFile(join(root, "secret"), "top secret");
    await (await fetch(`${origin}/object?key=ok&public=true`, { method: "PUT", body: "ok" })).body
      ?.cancel();
    const cases: [string, number][] = [
      ["/public/..%2f..%2f..%2fsecret", 400],
      ["/public/..%2F..%2Fsecret", 400],
      ["/public/a%00b", 400],
      ["/public/%E0%A4%A", 400], // not UTF-8 percent-encoding
      ["/public/%252e%252e/secret", 400], // decodes to the literal %2e%2e segment
      ["/public/a%5C..%5Csecret", 400], // backslashes
      ["/public/%2e%2e/%2e%2e/secret", 400], // kept by the server's URL parsing, then refused
      ["/public/../../secret", 400],
      ["/public/x/../ok", 400], // not quietly normalised to "ok" either
    ];
    for (const [path, status] of cases) {
      // fetch() would normalise dot segments itself; send the raw request line.
      const res = await rawGet(origin, path);
      assert.equal(res.status, status, path);
      assert.ok(!res.body.includes("top secret"), path);
    }
  }));

Deno.test("a client that hangs up mid-body leaves no object and no temp file", () =>
  withServer(async (origin, root) => {
    const { port } = new URL(origin);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
    const head = "PUT /object?key=hangup HTTP/1.1\r\nHost: x\r\n" +
      "Content-Type: application/octet-stream\r\nContent-Length: 10000000\r\n\r\n";
    await conn.write(new TextEncoder().encode(head));
    await conn.write(new Uint8Array(256 * 1024));
    // Wait until the upload has started writing, then hang up.
    const tmp = join(root, "data", "buckets", "private", "tmp");
    await waitFor(async () => (await listFiles(tmp)).length === 1);
    conn.close();
    await waitFor(async () => (await listFiles(tmp)).length === 0);
    const res = await fetch(`${origin}/object?key=hangup`);
    assert.equal(res.status, 404);
    await res.body?.cancel();
    assert.deepEqual(await listFiles(join(root, "data", "buckets", "private", "objects")), []);
  }));

Deno.test("a folder that cannot be written is 500 STORAGE_ERROR with a generic message", () =>
  withServer(async (origin, root) => {
    // DATA_DIR is a file: no bucket folder can be created in it.
    await Deno.writeTextFile(join(root, "data"), "not a folder");
    for (
      const [path, init] of [["/object?key=a", { method: "PUT", body: "a" }], [
        "/object?key=a",
        {},
      ]] as const
    ) {
      const res = await fetch(`${origin}${path}`, init);
      assert.equal(res.status, 500);
      const text = await res.text();
      assert.deepEqual(JSON.parse(text), {
        error: "Object storage operation failed",
        code: "STORAGE_ERROR",
      });
      assert.ok(!text.includes(root), "no path in the body");
    }
  }));

Deno.test("/openapi.json lists every route with its request schema and errors", () =>
  withServer(async (origin) => {
    const doc = await (await fetch(`${origin}/openapi.json`)).json();
    const paths = doc.paths;
    assert.deepEqual(Object.keys(paths["/object"]).sort(), ["delete", "get", "head", "put"]);
    const put = paths["/object"].put;
    const params = put.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    assert.deepEqual(params.sort(), ["header:content-type", "query:key", "query:public"]);
    assert.ok(put.requestBody.content["*/*"], "raw body declared");
    assert.deepEqual(Object.keys(put.responses).sort(), ["200", "400", "408", "413", "500"]);
    assert.deepEqual(
      Object.keys(paths["/object"].get.responses).sort(),
      ["200", "206", "304", "400", "404", "416", "500"],
    );
    const list = paths["/objects"].get.parameters.map((p: { name: string }) => p.name).sort();
    assert.deepEqual(list, ["cursor", "limit", "prefix", "public"]);
    assert.ok(Object.keys(paths).some((p) => p.startsWith("/public/")), "public route listed");
  }));

/** Sends `GET <path>` as written (no client-side normalisation); status and body. */
async function rawGet(origin: string, path: string) {
  const { port } = new URL(origin);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  await conn.write(
    new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
  );
  const text = await new Response(conn.readable).text();
  return { status: Number(text.split(" ")[1]), body: text };
}

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
