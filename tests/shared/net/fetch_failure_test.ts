import assert from "node:assert/strict";
import { describeFetchFailure, fetchFailureCause } from "../../../shared/net/fetch_failure.ts";

/** The error a real `fetch` of `url` throws (within 1 s). */
async function failureOf(url: string): Promise<unknown> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.body?.cancel();
  } catch (err) {
    return err;
  }
  assert.fail(`${url} did not fail`);
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("refused, TLS, timeout and a closed connection are told apart, with the host", async () => {
  const refusedUrl = `http://127.0.0.1:${closedPort()}/v1/chat?key=secret`;
  const refused = await failureOf(refusedUrl);
  assert.equal(fetchFailureCause(refused), "refused");
  const message = describeFetchFailure(refused, refusedUrl);
  assert.equal(message, `${new URL(refusedUrl).host}: connection refused (nothing listens there)`);
  assert.ok(!message.includes("secret"), "no path or query in the message");

  // https:// to a plain-HTTP server: the TLS handshake fails.
  const plain = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x"),
  );
  // A server that accepts and never answers, and one that hangs up at once.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const rude = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })().catch(() => {});
  const hanging = (async () => {
    for await (const conn of rude) conn.close();
  })().catch(() => {});
  try {
    const tls = await failureOf(`https://127.0.0.1:${plain.addr.port}/`);
    assert.equal(fetchFailureCause(tls), "tls");
    assert.match(
      describeFetchFailure(tls, `https://127.0.0.1:${plain.addr.port}/`),
      /: TLS failed \(.+\)$/,
    );

    const timeout = await failureOf(`http://127.0.0.1:${(silent.addr as Deno.NetAddr).port}/`);
    assert.equal(fetchFailureCause(timeout), "timeout");

    const reset = await failureOf(`http://127.0.0.1:${(rude.addr as Deno.NetAddr).port}/`);
    assert.equal(fetchFailureCause(reset), "reset");
  } finally {
    await plain.shutdown();
    silent.close();
    rude.close();
    for (const conn of held) conn.close();
    await accepting;
    await hanging;
  }
});

Deno.test("a DNS failure (Deno's error text; tests send nothing off loopback)", () => {
  const err = new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url (https://api.github.invalid/repos/a/b): client error " +
        "(Connect): dns error: failed to lookup address information: Name or service not known",
    ),
  });
  assert.equal(fetchFailureCause(err), "dns");
  assert.equal(
    describeFetchFailure(err, "https://api.github.invalid/repos/a/b"),
    "api.github.invalid: DNS lookup failed (no such host)",
  );
  assert.equal(fetchFailureCause(new Error("something else")), "other");
  assert.equal(
    describeFetchFailure(new Error("something else"), "http://x.test:81/"),
    "x.test:81: request failed (something else)",
  );
});
