/** shared/contract/front.ts: GET / without the app, the app on first use, a failed load. */
import assert from "node:assert/strict";
import { frontFetch, lazyApp, pathOf } from "../../../shared/contract/front.ts";
import { createApp } from "../../../functions/metadata-extractor/app.ts";
import { ROOT } from "../../../functions/metadata-extractor/root.ts";
import type { Bindings } from "../../../functions/metadata-extractor/app.ts";
import { openPolicy } from "../../support/policy.ts";

const BINDINGS = { fetchPolicy: openPolicy() } as unknown as Bindings;

/** A lazy metadata-extractor whose loads are counted, failing the first `failures` times. */
function counted(failures = 0) {
  let loads = 0;
  const lazy = lazyApp<Bindings>(ROOT, () => {
    loads++;
    if (loads <= failures) return Promise.reject(new Error("chunk missing"));
    return Promise.resolve({ createApp: (b: Bindings) => createApp(b, { log: () => {} }) });
  });
  return { fetch: frontFetch(lazy, BINDINGS), loads: () => loads };
}

/** Headers that differ per request. */
const VOLATILE = new Set(["x-request-id"]);

Deno.test("front: GET / answers as the app would, without loading it", async () => {
  const front = counted();
  const app = createApp(BINDINGS, { log: () => {} });
  const [a, b] = await Promise.all([
    front.fetch(new Request("http://x/")),
    app.request("http://x/"),
  ]);
  assert.equal(front.loads(), 0);
  assert.equal(a.status, b.status);
  assert.deepEqual(await a.json(), await b.json());
  const headers = (r: Response) => [...r.headers].filter(([k]) => !VOLATILE.has(k));
  assert.deepEqual(headers(a), headers(b));
  assert.match(a.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
});

Deno.test("front: other requests load the app once and are answered by it", async () => {
  const front = counted();
  const [doc, invalid] = await Promise.all([
    front.fetch(new Request("http://x/openapi.json")),
    front.fetch(new Request("http://x/metadata?url=nope")),
  ]);
  assert.equal(doc.status, 200);
  assert.ok((await doc.json()).paths["/metadata"]);
  assert.equal(invalid.status, 400);
  assert.equal((await invalid.json()).code, "INVALID_URL");
  assert.equal(front.loads(), 1);
  await (await front.fetch(new Request("http://x/nowhere"))).body?.cancel();
  assert.equal(front.loads(), 1);
});

Deno.test("front: a failed load is the contract's 500, and the next request tries again", async () => {
  const front = counted(1);
  const first = await front.fetch(new Request("http://x/openapi.json"));
  assert.equal(first.status, 500);
  const body = await first.json();
  assert.equal(body.code, "INTERNAL_ERROR");
  assert.ok(first.headers.get("x-request-id"));
  const second = await front.fetch(new Request("http://x/openapi.json"));
  assert.equal(second.status, 200);
  await second.body?.cancel();
  assert.equal(front.loads(), 2);
});

/** Sends `GET <target>` as written (fetch would normalise it) and returns the status and body. */
async function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
  );
  const text = await new Response(conn.readable).text();
  const [head, body] = text.split("\r\n\r\n", 2);
  return { status: Number(head.split(" ")[1]), body };
}

Deno.test("front: / is told from the path as it came, without loading the app", async () => {
  const front = counted();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, front.fetch);
  const port = server.addr.port;
  for (const target of ["/", "/?q=/docs"]) {
    const res = await rawGet(port, target);
    assert.equal(res.status, 200, target);
    assert.ok(res.body.includes(`"name":"${ROOT.name}"`), target);
  }
  assert.equal(front.loads(), 0);
  // Deno.serve hands paths over raw ("/./" stays "/./"), as the app's router reads them.
  for (const target of ["//", "/./", "/%2e/"]) {
    const res = await rawGet(port, target);
    assert.equal(res.status, 404, target);
    assert.ok(res.body.includes('"code":"NOT_FOUND"'), target);
  }
  assert.equal(front.loads(), 1);
});

Deno.test("front: pathOf reads the path of a URL as it came", () => {
  assert.equal(pathOf("http://x/a/b?c=/d"), "/a/b");
  assert.equal(pathOf("http://x/./"), "/./");
  assert.equal(pathOf("http://x?q=/a"), "/");
  assert.equal(pathOf("http://x"), "/");
  assert.equal(pathOf("https://x:8080/%2e?"), "/%2e");
});

Deno.test("front: once the app is built, its synchronous answer is returned as it is", async () => {
  const answer = new Response("hot");
  const lazy = lazyApp<Bindings>(ROOT, () =>
    Promise.resolve({
      createApp: () => ({
        fetch: (req: Request) =>
          new URL(req.url).pathname === "/hot" ? answer : Promise.resolve(new Response("routed")),
      }),
    }));
  const fetch = frontFetch(lazy, BINDINGS);
  assert.equal(
    await (await fetch(new Request("http://x/hot"))).text(),
    "hot",
    "first: loads the app",
  );
  assert.equal(fetch(new Request("http://x/hot")), answer);
  assert.equal(await (await fetch(new Request("http://x/other"))).text(), "routed");
});
