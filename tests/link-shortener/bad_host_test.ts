/**
 * A malformed `Host` header is 400 INVALID_INPUT on every route that builds a URL from the
 * request's origin (it was a 500 with a stack in the log, or a `shortUrl` on another host),
 * over real HTTP: the runtime builds `req.url` from the header as sent.
 */
import assert from "node:assert/strict";
import { linkApp } from "./app_fixture.ts";

/** Host values the runtime turns into an unparseable URL or one on another host. */
const BAD_HOSTS = ["a b", 'a"><x', "a:99999", "[::1", "a%2f", "a?b", "a#b", "@x"];

/** One raw HTTP/1.1 exchange (fetch would not send these Host values): status and body. */
async function raw(
  port: number,
  method: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
  body = "",
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${new TextEncoder().encode(body).length}`);
  await conn.write(new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n${body}`));
  const text = await new Response(conn.readable).text();
  const [head, ...rest] = text.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: rest.join("\r\n\r\n") };
}

Deno.test("a bad Host is 400 INVALID_INPUT on POST /shorten, PATCH /:code and GET /:code/qr", async () => {
  await using fx = await linkApp();
  const created = await (await fx.shorten({ url: "https://example.com/a" })).json();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, fx.app.fetch);
  const { port } = server.addr;
  try {
    const json = { "content-type": "application/json" };
    const patchHeaders = { ...json, authorization: `Bearer ${created.manageToken}` };
    for (const host of BAD_HOSTS) {
      const answers = [
        await raw(port, "POST", "/shorten", host, json, '{"url":"https://example.com/b"}'),
        await raw(
          port,
          "PATCH",
          `/${created.code}`,
          host,
          patchHeaders,
          '{"url":"https://e.com/c"}',
        ),
        await raw(port, "GET", `/${created.code}/qr`, host),
      ];
      for (const answer of answers) {
        assert.equal(answer.status, 400, `${host}: ${answer.body}`);
        assert.deepEqual(JSON.parse(answer.body), {
          error: "Invalid Host header",
          code: "INVALID_INPUT",
        });
      }
    }
    // Nothing was created or changed.
    const rows = await (await fx.db.client()).execute("SELECT url FROM links");
    assert.deepEqual(rows.rows.map((r) => r.url), ["https://example.com/a"]);
    // A good Host still works and names itself in the short URL.
    const ok = await raw(
      port,
      "POST",
      "/shorten",
      "sho.rt:8080",
      json,
      '{"url":"https://e.com/d"}',
    );
    assert.equal(ok.status, 201, ok.body);
    assert.match(JSON.parse(ok.body).shortUrl, /^http:\/\/sho\.rt:8080\/[\w-]+$/);
    assert.ok(!fx.logs.some((l) => l.includes("INTERNAL_ERROR") || l.includes("stack")));
  } finally {
    await server.shutdown();
  }
});
