/**
 * A fake OpenAI-compatible inference server on 127.0.0.1: it speaks `POST /v1/chat/completions`
 * with the real response shape, records every request, and can answer with text, an empty or
 * missing completion, an HTTP error, or never (a hang that ends when the client gives up).
 */
import { untilAborted } from "./until_aborted.ts";

/** How the fake answers the next requests. */
export type FakeBehaviour =
  | { kind: "reply"; content: string }
  | { kind: "empty" } // content ""
  | { kind: "no-choices" } // choices: []
  | { kind: "status"; status: number; error?: string }
  | { kind: "hang" };

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  /** The parsed JSON body (null when it was not JSON). */
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    max_tokens?: number;
    [key: string]: unknown;
  } | null;
}

/** A running fake. */
export interface OpenAiFake {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request, in order of arrival. */
  requests: RecordedRequest[];
  /** The model id the fake reports in its responses. */
  model: string;
  /** Changes how the fake answers from now on. */
  behave(behaviour: FakeBehaviour): void;
  close(): Promise<void>;
}

/** The model id reported unless a test asks for another. */
export const FAKE_MODEL = "fake/tiny-chat-1";

/** Starts the fake on a free loopback port. */
export function startOpenAiFake(
  behaviour: FakeBehaviour = { kind: "reply", content: "A fake summary." },
  model: string = FAKE_MODEL,
): OpenAiFake {
  let current = behaviour;
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: closing.signal, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      const raw = await req.text();
      let body: RecordedRequest["body"] = null;
      try {
        body = JSON.parse(raw);
      } catch { /* recorded as null */ }
      requests.push({ method: req.method, path: url.pathname, headers: req.headers, body });
      if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
        return Response.json({ error: { message: "Not found" } }, { status: 404 });
      }
      const answer = current;
      switch (answer.kind) {
        case "hang":
          // Never answers while the fake runs (the client gives up first); closing ends it.
          await untilAborted(closing.signal);
          return new Response(null, { status: 499 });
        case "status":
          return Response.json(
            { error: { message: answer.error ?? "Internal server error", type: "server_error" } },
            { status: answer.status },
          );
        case "no-choices":
          return Response.json(completion(model, null));
        case "empty":
          return Response.json(completion(model, ""));
        case "reply":
          return Response.json(completion(model, answer.content));
      }
    },
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    requests,
    model,
    behave(next) {
      current = next;
    },
    async close() {
      closing.abort();
      await server.finished;
    },
  };
}

/** A `chat.completion` object as OpenAI-compatible servers send it (null: no choices). */
function completion(model: string, content: string | null) {
  return {
    id: "chatcmpl-fake-0001",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    system_fingerprint: "fp_fake",
    choices: content === null ? [] : [{
      index: 0,
      message: { role: "assistant", content },
      logprobs: null,
      finish_reason: "stop",
    }],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  };
}
