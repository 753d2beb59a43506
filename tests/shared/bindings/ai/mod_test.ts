/**
 * The `AI` binding: adapter choice from the environment, the real @huggingface/inference client
 * against a fake OpenAI-compatible server, the HF provider path observed through its fetch, the
 * offline default, and the summary rules shared by /summary and /explain.
 */
import assert from "node:assert/strict";
import {
  type AI,
  aiConfigFromEnv,
  AiError,
  completionText,
  createAi,
  DEFAULT_AI_TIMEOUT_MS,
  DEFAULT_HF_MODEL,
  EXTRACTIVE_MODEL,
  extractiveAi,
  generateSummary,
  MAX_COMPLETION_TOKENS,
  truncateText,
} from "../../../../shared/bindings/ai/mod.ts";
import { ConfigError, Env } from "../../../../shared/contract/config.ts";
import { ApiError } from "../../../../shared/contract/errors.ts";
import { endedByDeadline } from "../../../support/deadline_race.ts";
import { FAKE_MODEL, startOpenAiFake } from "../../../support/openai_fake.ts";

const MESSAGES = [
  { role: "system" as const, content: "You are a helpful assistant." },
  { role: "user" as const, content: "Title: T\n\nContent:\nSome text." },
];

Deno.test("aiConfigFromEnv: AI_BASE_URL, else HF_TOKEN, else the offline default", () => {
  assert.deepEqual(aiConfigFromEnv(new Env({})), { kind: "extractive" });
  assert.deepEqual(
    aiConfigFromEnv(new Env({ AI_BASE_URL: "http://127.0.0.1:8080/v1/", AI_MODEL: "llama" })),
    {
      kind: "openai-compatible",
      baseUrl: "http://127.0.0.1:8080/v1",
      model: "llama",
      token: undefined,
      timeoutMs: DEFAULT_AI_TIMEOUT_MS,
    },
  );
  assert.deepEqual(
    aiConfigFromEnv(new Env({ AI_BASE_URL: "https://ep.test", HF_TOKEN: "hf_x" })).kind,
    "openai-compatible",
    "AI_BASE_URL wins over HF_TOKEN",
  );
  assert.deepEqual(aiConfigFromEnv(new Env({ HF_TOKEN: "hf_abc", AI_TIMEOUT_MS: "2500" })), {
    kind: "hf",
    token: "hf_abc",
    provider: "auto",
    model: DEFAULT_HF_MODEL,
    timeoutMs: 2500,
  });
  assert.deepEqual(
    aiConfigFromEnv(new Env({ HF_TOKEN: "hf_abc", AI_PROVIDER: "groq", AI_MODEL: "m/x" })),
    { kind: "hf", token: "hf_abc", provider: "groq", model: "m/x", timeoutMs: 30_000 },
  );
});

Deno.test("aiConfigFromEnv: malformed values stop start-up with a ConfigError naming the variable", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ AI_TIMEOUT_MS: "soon" }, /^AI_TIMEOUT_MS must be an integer/],
    [{ AI_TIMEOUT_MS: "10" }, /^AI_TIMEOUT_MS must be an integer from 100/],
    [{ AI_BASE_URL: "not a url" }, /^AI_BASE_URL must be an absolute URL/],
    [{ AI_BASE_URL: "ftp://host/" }, /^AI_BASE_URL must use http: or https:/],
    [{ HF_TOKEN: "hf_x", AI_PROVIDER: "nowhere" }, /^AI_PROVIDER must be one of auto, /],
    [{ AI_BASE_URL: "http://h.test", AI_PROVIDER: "groq" }, /^AI_PROVIDER cannot be combined/],
    [{ HF_TOKEN: "gsk_provider_key" }, /^HF_TOKEN must be a Hugging Face token/],
  ];
  for (const [vars, message] of cases) {
    assert.throws(() => aiConfigFromEnv(new Env(vars)), (err: unknown) => {
      assert.ok(err instanceof ConfigError, JSON.stringify(vars));
      assert.match(err.message, message);
      return true;
    });
  }
});

Deno.test("openai-compatible: root, /v1 and full endpoint URLs all reach /v1/chat/completions", async () => {
  const fake = startOpenAiFake({ kind: "reply", content: "  Short answer.  " });
  try {
    for (const base of [fake.origin, `${fake.origin}/v1`, `${fake.origin}/v1/chat/completions`]) {
      const ai = createAi({
        kind: "openai-compatible",
        baseUrl: base,
        model: "m",
        timeoutMs: 5_000,
      });
      const reply = await ai.chat(MESSAGES);
      assert.deepEqual(reply, { text: "Short answer.", model: FAKE_MODEL });
    }
    assert.deepEqual(fake.requests.map((r) => r.path), Array(3).fill("/v1/chat/completions"));
    const body = fake.requests[0].body!;
    assert.deepEqual(body.messages, MESSAGES);
    assert.equal(body.model, "m");
    assert.equal(body.max_tokens, MAX_COMPLETION_TOKENS);
    assert.equal(body.stream, undefined);
    assert.equal(fake.requests[0].headers.get("authorization"), null, "no token, no header");
  } finally {
    await fake.close();
  }
});

Deno.test("openai-compatible: HF_TOKEN is sent as a Bearer token; without AI_MODEL the server's default answers", async () => {
  const fake = startOpenAiFake({ kind: "reply", content: "ok" }, "");
  try {
    const ai = createAi({
      kind: "openai-compatible",
      baseUrl: fake.origin,
      token: "hf_secret",
      timeoutMs: 5_000,
    });
    const host = new URL(fake.origin).host;
    assert.equal(ai.model, `openai-compatible (${host})`);
    const reply = await ai.chat(MESSAGES);
    assert.equal(reply.model, `openai-compatible (${host})`, "server reported no model id");
    assert.equal(fake.requests[0].headers.get("authorization"), "Bearer hf_secret");
    assert.equal(fake.requests[0].body?.model, "");
  } finally {
    await fake.close();
  }
});

Deno.test("openai-compatible: empty or missing completions are null; errors and hangs are AiError", async () => {
  const fake = startOpenAiFake({ kind: "empty" });
  const ai = createAi({ kind: "openai-compatible", baseUrl: fake.origin, timeoutMs: 250 });
  try {
    assert.equal((await ai.chat(MESSAGES)).text, null);
    fake.behave({ kind: "no-choices" });
    assert.equal((await ai.chat(MESSAGES)).text, null);

    fake.behave({ kind: "status", status: 500, error: "boom" });
    await assert.rejects(ai.chat(MESSAGES), (err: unknown) => {
      assert.ok(err instanceof AiError);
      assert.equal(err.message, "AI model request failed: HTTP 500: boom");
      return true;
    });

    fake.behave({ kind: "status", status: 503, error: "warming up" });
    await assert.rejects(ai.chat(MESSAGES), /HTTP 503: warming up/);
    assert.equal(fake.requests.length, 4, "the 503 was not retried");

    fake.behave({ kind: "hang" });
    await assert.rejects(endedByDeadline(ai.chat(MESSAGES), 250), (err: unknown) => {
      assert.ok(err instanceof AiError);
      assert.equal(err.message, `AI model at ${new URL(fake.origin).host} timed out after 250 ms`);
      return true;
    });
  } finally {
    await fake.close();
  }
});

Deno.test("openai-compatible: an unreachable server is an AiError, not a crash", async () => {
  const fake = startOpenAiFake();
  const origin = fake.origin;
  await fake.close();
  const ai = createAi({ kind: "openai-compatible", baseUrl: origin, timeoutMs: 2_000 });
  await assert.rejects(ai.chat(MESSAGES), (err: unknown) => {
    assert.ok(err instanceof AiError);
    // The host and the cause, not the client's bare "fetch failed".
    assert.equal(
      err.message,
      `AI model request failed: ${
        new URL(origin).host
      }: connection refused (nothing listens there)`,
    );
    return true;
  });
});

Deno.test("hf providers: the router URL, the token and the model, seen through the client's fetch", async () => {
  const fake = startOpenAiFake({ kind: "reply", content: "From the router." }, DEFAULT_HF_MODEL);
  const seen: { url: string; auth: string | null }[] = [];
  // Stands in for the network: records where the real client sends the request, then
  // delivers it to the loopback fake.
  const viaFake: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push({ url: url.href, auth: new Headers(init?.headers).get("authorization") });
    return fetch(`${fake.origin}${url.pathname}`, init);
  };
  try {
    const config = aiConfigFromEnv(new Env({ HF_TOKEN: "hf_token123", AI_TIMEOUT_MS: "5000" }));
    const ai = createAi(config, { fetch: viaFake });
    assert.equal(ai.model, DEFAULT_HF_MODEL);
    const reply = await ai.chat(MESSAGES);
    assert.deepEqual(reply, { text: "From the router.", model: DEFAULT_HF_MODEL });
    assert.deepEqual(seen, [{
      url: "https://router.huggingface.co/v1/chat/completions",
      auth: "Bearer hf_token123",
    }]);
    assert.equal(fake.requests[0].body?.model, DEFAULT_HF_MODEL);
    assert.deepEqual(fake.requests[0].body?.messages, MESSAGES);
  } finally {
    await fake.close();
  }
});

Deno.test("hf providers: a named provider is resolved on the Hub, then called directly", async () => {
  const fake = startOpenAiFake({ kind: "reply", content: "From groq." }, "llama-3.1-8b-instant");
  const seen: string[] = [];
  const viaFake: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(url.origin + url.pathname);
    if (url.hostname === "huggingface.co") {
      const mapping = {
        groq: { providerId: "llama-3.1-8b-instant", status: "live", task: "conversational" },
      };
      return Promise.resolve(
        Response.json({ id: "acme/groq-test-1", inferenceProviderMapping: mapping }),
      );
    }
    return fetch(`${fake.origin}/v1/chat/completions`, init);
  };
  try {
    const config = aiConfigFromEnv(
      new Env({ HF_TOKEN: "hf_t", AI_PROVIDER: "groq", AI_MODEL: "acme/groq-test-1" }),
    );
    const reply = await createAi(config, { fetch: viaFake }).chat(MESSAGES);
    assert.deepEqual(reply, { text: "From groq.", model: "llama-3.1-8b-instant" });
    assert.deepEqual(seen, [
      "https://huggingface.co/api/models/acme/groq-test-1",
      "https://router.huggingface.co/groq/openai/v1/chat/completions",
    ]);
    assert.equal(fake.requests[0].body?.model, "llama-3.1-8b-instant");
  } finally {
    await fake.close();
  }
});

Deno.test("hf providers: a Hub lookup that hangs is bounded by AI_TIMEOUT_MS too", async () => {
  // Never answers; gives up only when the request's signal aborts.
  const hanging: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true });
    });
  const config = aiConfigFromEnv(
    new Env({
      HF_TOKEN: "hf_t",
      AI_PROVIDER: "together",
      AI_MODEL: "acme/hang-1",
      AI_TIMEOUT_MS: "200",
    }),
  );
  const chat = createAi(config, { fetch: hanging }).chat(MESSAGES);
  await assert.rejects(endedByDeadline(chat, 200), (err: unknown) => {
    assert.ok(err instanceof AiError);
    assert.equal(err.message, "AI model timed out after 200 ms");
    return true;
  });
});

Deno.test("extractiveAi: summarises the user message offline, title boosted, labels dropped", async () => {
  const ai = extractiveAi();
  assert.equal(ai.model, EXTRACTIVE_MODEL);
  const reply = await ai.chat([
    { role: "system", content: "You are a helpful assistant." },
    {
      role: "user",
      content: "Title: Kites\n\nContent:\nKites fly on the wind and need open space to launch. " +
        "Bicycles need tyres that are pumped up to the right pressure before a ride.",
    },
  ]);
  assert.deepEqual(reply, {
    text: "Kites fly on the wind and need open space to launch. " +
      "Bicycles need tyres that are pumped up to the right pressure before a ride.",
    model: EXTRACTIVE_MODEL,
  });
  const labelsOnly = await ai.chat([{ role: "user", content: "Title: X\n\nContent:\n" }]);
  assert.equal(labelsOnly.text, null, "nothing but labels is no text");
  const described = await ai.chat([{
    role: "user",
    content: "Repository: o/r\nDescription: A tiny tool that converts kites into bicycles.\n" +
      "Language: Go\n\nREADME:\n",
  }]);
  assert.equal(described.text, "A tiny tool that converts kites into bicycles.");
});

Deno.test("completionText: first choice's content, trimmed, parts joined; otherwise null", () => {
  assert.equal(completionText({ choices: [{ message: { content: " hi " } }] }), "hi");
  assert.equal(
    completionText({
      choices: [{ message: { content: [{ type: "text", text: "a" }, { text: "b" }] } }],
    }),
    "ab",
  );
  assert.equal(completionText({ choices: [{ message: { content: null } }] }), null);
  assert.equal(completionText({ choices: [] }), null);
  assert.equal(completionText({}), null);
  assert.equal(completionText(null), null);
});

Deno.test("truncateText: at most the limit, never half a surrogate pair", () => {
  assert.equal(truncateText("a".repeat(7000)).length, 6000);
  assert.equal(truncateText("short"), "short");
  const emoji = "a".repeat(5999) + "😀" + "b";
  assert.equal(truncateText(emoji), "a".repeat(5999));
});

Deno.test("generateSummary: null is the rule-5 text; a failure is 502 FETCH_OR_AI_ERROR", async () => {
  const silent: AI = { model: "m", chat: () => Promise.resolve({ text: null, model: "m" }) };
  assert.deepEqual(await generateSummary(silent, MESSAGES), {
    summary: "Unable to generate summary.",
    model: "m",
  });
  const failing: AI = { model: "m", chat: () => Promise.reject(new AiError("AI model timed out")) };
  await assert.rejects(generateSummary(failing, MESSAGES), (err: unknown) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 502);
    assert.deepEqual(err.body, { error: "AI model timed out", code: "FETCH_OR_AI_ERROR" });
    return true;
  });
});
