/**
 * `GET /summary` end to end: pages from the loopback fixture server, the real
 * @huggingface/inference client through the `AI` binding, and a fake OpenAI-compatible server
 * that records what the model received.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/ai-summary/app.ts";
import { SUMMARY_SYSTEM_PROMPT } from "../../functions/ai-summary/prompt.ts";
import { DEFAULT_TREE_LIMITS } from "../../functions/ai-summary/tree.ts";
import { type AI, createAi, extractiveAi } from "../../shared/bindings/ai/mod.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { type FixtureRoute, startFixtureServer } from "../support/fixture_server.ts";
import { FAKE_MODEL, type FakeBehaviour, startOpenAiFake } from "../support/openai_fake.ts";
import { guardedPolicy, openPolicy } from "../support/policy.ts";

/** The readable text of tests/fixtures/articles/solar_sails.html, one line per block. */
/** The reader drops the heading that repeats the title and the byline, as Readability does. */
const SOLAR_SAILS_TEXT = [
  "A solar sail is a spacecraft propulsion method that uses the pressure of sunlight instead of rocket fuel. Photons carry momentum, and when they bounce off a large reflective sail they push it gently away from the Sun.",
  "The push from sunlight is tiny, roughly the weight of a coin spread over a football field. Because the pressure never stops, however, a solar sail keeps accelerating for months and can eventually reach speeds that chemical rockets cannot match.",
  "Building a sail",
  "Engineers build sails from very thin reflective film, often aluminised polyimide a few micrometres thick. The sail must be light, large and stiff enough to unfold in space without tearing.",
  "Folding the film for launch and deploying it in orbit is one of the hardest problems in the design of a solar sail mission.",
  "Missions so far",
  "The Japanese IKAROS probe became the first spacecraft to use a solar sail as its main propulsion in interplanetary space in 2010. Later, the Planetary Society flew LightSail 2, which raised its orbit around Earth using sunlight alone.",
  "Future missions plan to use solar sails to watch the Sun from unusual orbits, to visit asteroids, and perhaps one day to send tiny probes toward nearby stars.",
].join("\n");

/** 10,000 characters of distinct words, so that where it was cut can be checked. */
const LONG_TEXT = Array.from({ length: 1200 }, (_, i) => `w${String(i).padStart(7, "0")}`)
  .join(" ").slice(0, 10_000);

const ROUTES: Record<string, FixtureRoute> = {
  "/long": () =>
    new Response(`<html><head><title>Long</title></head><body><p>${LONG_TEXT}</p></body></html>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    }),
  // 6,000 unclosed <div>s: once made /summary answer 500 "Maximum call stack size exceeded".
  "/deep": () =>
    new Response(
      `<html><head><title>Deep</title></head><body>${"<div>".repeat(6000)}x</body></html>`,
      {
        headers: { "content-type": "text/html; charset=utf-8" },
      },
    ),
  "/blank.txt": () =>
    new Response("   \n\t  \n", { headers: { "content-type": "text/plain; charset=utf-8" } }),
};

/** A fixture server, a fake model server and the app over the real inference adapter. */
async function withSetup(
  fn: (ctx: {
    app: ReturnType<typeof createApp>;
    fake: ReturnType<typeof startOpenAiFake>;
    pages: ReturnType<typeof startFixtureServer>;
  }) => Promise<void>,
  options: { behaviour?: FakeBehaviour; timeoutMs?: number; policy?: FetchPolicy } = {},
) {
  const pages = startFixtureServer(ROUTES);
  const fake = startOpenAiFake(options.behaviour);
  const ai = createAi({
    kind: "openai-compatible",
    baseUrl: fake.origin,
    model: "tiny-chat",
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  const app = createApp({ fetchPolicy: options.policy ?? openPolicy(), AI: ai }, { log: () => {} });
  try {
    await fn({ app, fake, pages });
  } finally {
    await fake.close();
    await pages.close();
  }
}

function summary(app: ReturnType<typeof createApp>, url: string) {
  return app.request(`/summary?url=${encodeURIComponent(url)}`);
}

Deno.test("summary: one system and one user message carrying the title and the readable text", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(res.headers.get("x-ai-model"), FAKE_MODEL, "the model the server reported");
    assert.deepEqual(await res.json(), {
      title: "How Solar Sails Work",
      summary: "A fake summary.",
    });

    assert.equal(fake.requests.length, 1);
    const [req] = fake.requests;
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/chat/completions");
    assert.equal(req.body?.model, "tiny-chat");
    assert.deepEqual(req.body?.messages, [
      { role: "system", content: SUMMARY_SYSTEM_PROMPT },
      { role: "user", content: `Title: How Solar Sails Work\n\nContent:\n${SOLAR_SAILS_TEXT}` },
    ]);
    assert.match(SUMMARY_SYSTEM_PROMPT, /helpful assistant/);
  });
});

Deno.test("summary: boilerplate (scripts, nav, header, footer, asides, forms, banners) never reaches the model", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(res.status, 200);
    const sent = fake.requests[0].body?.messages?.[1].content ?? "";
    for (
      const junk of [
        "tracking code",
        "font-family",
        "Launches",
        "cookies",
        "newsletter",
        "Related stories",
        "Copyright",
        "Sign up",
        "noopener",
      ]
    ) assert.ok(!sent.includes(junk), `"${junk}" was sent to the model`);
  });
});

Deno.test('summary: a page without a title sends "N/A" and answers title null', async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/untitled.html"));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { title: null, summary: "A fake summary." });
    assert.equal(
      fake.requests[0].body?.messages?.[1].content,
      "Title: N/A\n\nContent:\nThis page has no title element in its head. Its body still has a sentence worth reading.",
    );
  });
});

Deno.test("summary: text of 10,000 characters reaches the model cut to its first 6,000", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    assert.equal(LONG_TEXT.length, 10_000);
    const res = await summary(app, pages.url("/long"));
    assert.equal(res.status, 200);
    const prefix = "Title: Long\n\nContent:\n";
    const content = fake.requests[0].body?.messages?.[1].content ?? "";
    assert.ok(content.startsWith(prefix));
    const sentText = content.slice(prefix.length);
    assert.equal(sentText.length, 6_000);
    assert.equal(sentText, LONG_TEXT.slice(0, 6_000));
  });
});

Deno.test('summary: an empty page is 200 "No content." and never reaches the model', async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/empty_body.html"));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { title: "Nothing Here", summary: "No content." });
    assert.equal(res.headers.get("x-ai-model"), null, "no model answered");
    assert.equal(pages.hits("/articles/empty_body.html"), 1);

    const blank = await summary(app, pages.url("/blank.txt"));
    assert.deepEqual(await blank.json(), { title: null, summary: "No content." });
    assert.equal(fake.requests.length, 0);
  });
});

Deno.test('summary: an empty or missing completion is "Unable to generate summary."', async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      title: "How Solar Sails Work",
      summary: "Unable to generate summary.",
    });
    fake.behave({ kind: "no-choices" });
    const missing = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal((await missing.json()).summary, "Unable to generate summary.");
    fake.behave({ kind: "reply", content: "  \n " });
    const blank = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal((await blank.json()).summary, "Unable to generate summary.");
    assert.equal(fake.requests.length, 3);
  }, { behaviour: { kind: "empty" } });
});

Deno.test("summary: a model 500 is 502 FETCH_OR_AI_ERROR with the server's message, not retried", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(res.status, 502);
    const body = await res.json();
    assert.equal(body.code, "FETCH_OR_AI_ERROR");
    assert.equal(body.error, "AI model request failed: HTTP 500: model overloaded");
    assert.equal(fake.requests.length, 1);

    fake.behave({ kind: "status", status: 503, error: "loading" });
    const unavailable = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(unavailable.status, 502);
    assert.equal(fake.requests.length, 2, "a 503 is not retried (retry_on_error: false)");
  }, { behaviour: { kind: "status", status: 500, error: "model overloaded" } });
});

Deno.test("summary: a model that hangs is 502 FETCH_OR_AI_ERROR within AI_TIMEOUT_MS", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const started = performance.now();
    const res = await endedByDeadline(summary(app, pages.url("/articles/solar_sails.html")), 300);
    const elapsed = performance.now() - started;
    assert.equal(res.status, 502);
    assert.deepEqual(await res.json(), {
      error: `AI model at ${new URL(fake.origin).host} timed out after 300 ms`,
      code: "FETCH_OR_AI_ERROR",
    });
    assert.ok(elapsed >= 290, `gave up early, after ${elapsed} ms`);
    assert.equal(fake.requests.length, 1);
  }, { behaviour: { kind: "hang" }, timeoutMs: 300 });
});

Deno.test("summary: fetch failures are 502 FETCH_OR_AI_ERROR and the model is not called", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const missing = await summary(app, pages.url("/articles/nope.html"));
    assert.equal(missing.status, 502);
    assert.deepEqual(await missing.json(), {
      error: "Page responded with HTTP 404 Not Found",
      code: "FETCH_OR_AI_ERROR",
    });

    const stalled = await summary(app, pages.url("/stall?ms=5000"));
    assert.equal(stalled.status, 502);
    const stalledBody = await stalled.json();
    assert.equal(stalledBody.code, "FETCH_OR_AI_ERROR");
    assert.match(stalledBody.error, /Timed out after 200 ms/);

    const closed = startFixtureServer();
    const deadUrl = closed.url("/gone.html");
    await closed.close();
    const refused = await summary(app, deadUrl);
    assert.equal(refused.status, 502);
    const refusedBody = await refused.json();
    assert.equal(refusedBody.code, "FETCH_OR_AI_ERROR");
    assert.match(refusedBody.error, /Connection refused/);
    assert.equal(fake.requests.length, 0);
  }, { policy: openPolicy({ timeoutMs: 200 }) });
});

Deno.test("summary: plain text is summarised as text; binary is 502 with a clear message", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/notes.txt"));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { title: null, summary: "A fake summary." });
    assert.equal(
      fake.requests[0].body?.messages?.[1].content,
      "Title: N/A\n\nContent:\nRelease notes for version 2.0 of the sample tool.\n" +
        "The command line now reads configuration from a file in the project root.\n" +
        "Startup is twice as fast because plugins load lazily on first use.\n" +
        "The old flag for verbose output has been removed in favour of a log level setting.",
    );

    const binary = await summary(app, pages.url("/articles/notes.txt?type=image/png"));
    assert.equal(binary.status, 502);
    assert.deepEqual(await binary.json(), {
      error: "Cannot summarise image/png content: not HTML or text",
      code: "FETCH_OR_AI_ERROR",
    });
    assert.equal(fake.requests.length, 1);
  });
});

Deno.test("summary: a page nested 6,000 levels deep is 502 FETCH_OR_AI_ERROR saying so, model not called", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    // Answered within the reader's time budget (an AssertionError if not).
    const res = await endedByDeadline(
      summary(app, pages.url("/deep")),
      DEFAULT_TREE_LIMITS.maxMs,
    );
    assert.equal(res.status, 502);
    assert.deepEqual(await res.json(), {
      error: "Page nested too deeply to read: over 1024 levels",
      code: "FETCH_OR_AI_ERROR",
    });
    assert.equal(fake.requests.length, 0);
    const ok = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(ok.status, 200, "the next request is served as usual");
  });
});

Deno.test("summary: input is validated before any fetch (400 INVALID_URL)", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    for (const query of ["", "?url=", "?url=not-a-url", "?url=ftp%3A%2F%2Fexample.com%2F"]) {
      const res = await app.request(`/summary${query}`);
      assert.equal(res.status, 400, query);
      assert.deepEqual(await res.json(), { error: "Missing or invalid url", code: "INVALID_URL" });
    }
    assert.equal(pages.hits(), 0);
    assert.equal(fake.requests.length, 0);
  });
});

Deno.test("summary: a private address is refused under the guarded policy, nothing contacted", async () => {
  await withSetup(async ({ app, fake, pages }) => {
    const res = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, "INVALID_URL");
    assert.equal(pages.hits(), 0);
    assert.equal(fake.requests.length, 0);
  }, { policy: guardedPolicy() });
});

Deno.test("summary: the offline default answers with an extractive summary and says so", async () => {
  const pages = startFixtureServer();
  try {
    const ai: AI = extractiveAi();
    const app = createApp({ fetchPolicy: openPolicy(), AI: ai }, { log: () => {} });
    const res = await summary(app, pages.url("/articles/solar_sails.html"));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-ai-model"), "extractive (offline)");
    const body = await res.json();
    assert.equal(body.title, "How Solar Sails Work");
    assert.equal(
      body.summary,
      "A solar sail is a spacecraft propulsion method that uses the pressure of sunlight instead of rocket fuel. " +
        "Because the pressure never stops, however, a solar sail keeps accelerating for months and can eventually reach speeds that chemical rockets cannot match. " +
        "Future missions plan to use solar sails to watch the Sun from unusual orbits, to visit asteroids, and perhaps one day to send tiny probes toward nearby stars.",
    );
  } finally {
    await pages.close();
  }
});

Deno.test("summary: the route is described in /openapi.json with its error responses", async () => {
  const app = createApp({ fetchPolicy: openPolicy(), AI: extractiveAi() }, { log: () => {} });
  const doc = await (await app.request("/openapi.json")).json();
  const op = doc.paths["/summary"].get;
  assert.ok(op.responses["200"]);
  assert.match(op.responses["400"].description, /INVALID_URL/);
  assert.match(op.responses["502"].description, /FETCH_OR_AI_ERROR/);
  assert.equal(op.parameters[0].name, "url");
});
