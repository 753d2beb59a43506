/**
 * The `AI` binding: chat messages in, text (or null) out, with the name of the model that
 * answered. Three adapters, chosen from the environment:
 * - `AI_BASE_URL`: any OpenAI-compatible server (vLLM, llama.cpp, Ollama, TGI, HF endpoints)
 *   through `InferenceClient.chatCompletion({endpointUrl})` of @huggingface/inference;
 * - else `HF_TOKEN`: the Hugging Face inference providers (`AI_PROVIDER`, `AI_MODEL`);
 * - else the embedded offline extractive summariser (shared/bindings/ai/extractive_summary.ts).
 */
import type { InferenceClient } from "@huggingface/inference";
import { ConfigError, type Env } from "../../contract/config.ts";
import { ApiError } from "../../contract/errors.ts";
import { describeFetchFailure } from "../../net/fetch_failure.ts";
import { extractiveSummary } from "./extractive_summary.ts";
import { onFirstUse } from "../../contract/lazy.ts";

/** One chat message, as OpenAI-compatible servers take it. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What a model answered. */
export interface AiReply {
  /** The completion, trimmed; null when the model returned no text. */
  text: string | null;
  /** What answered: the model id the server reported, else the configured one. */
  model: string;
}

/** The `AI` binding. */
export interface AI {
  /** The configured model's name (the header value before any call). */
  readonly model: string;
  /** Sends the messages; throws {@link AiError} when the model fails or times out. */
  chat(messages: ChatMessage[]): Promise<AiReply>;
}

/** A failed or timed-out model call; `message` says what went wrong, for the 502 body. */
export class AiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AiError";
  }
}

/** Name the offline default reports in `X-AI-Model`. */
export const EXTRACTIVE_MODEL = "extractive (offline)";

/** `AI_TIMEOUT_MS` when unset. */
export const DEFAULT_AI_TIMEOUT_MS = 30_000;

/** `AI_MODEL` for the Hugging Face providers when unset: a small, widely served instruct model. */
export const DEFAULT_HF_MODEL = "meta-llama/Llama-3.1-8B-Instruct";

/** `AI_PROVIDER` when unset: the HF router picks the first provider serving the model. */
export const DEFAULT_HF_PROVIDER = "auto";

/** Providers `AI_PROVIDER` may name (those of @huggingface/inference 4, plus the router's "auto"). */
export const AI_PROVIDERS = [
  "auto",
  "baseten",
  "cerebras",
  "cohere",
  "deepinfra",
  "featherless-ai",
  "fireworks-ai",
  "groq",
  "hf-inference",
  "novita",
  "nscale",
  "openai",
  "ovhcloud",
  "publicai",
  "replicate",
  "scaleway",
  "together",
  "zai-org",
] as const;

/** A provider `AI_PROVIDER` may name. */
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** Upper bound on the completion's length asked of the model (a summary, not an essay). */
export const MAX_COMPLETION_TOKENS = 512;

/** Which adapter answers, with its settings. */
export type AiConfig =
  | {
    kind: "openai-compatible";
    /** `AI_BASE_URL`: the server's root, its `/v1`, or its full `/v1/chat/completions`. */
    baseUrl: string;
    /** `AI_MODEL`; when unset the server's default model answers (an empty `model` field). */
    model?: string;
    /** `HF_TOKEN`, sent as a Bearer token when set (HF endpoints need it). */
    token?: string;
    timeoutMs: number;
  }
  | { kind: "hf"; token: string; provider: AiProvider; model: string; timeoutMs: number }
  | { kind: "extractive" };

/**
 * Reads the AI settings: `AI_BASE_URL`, `HF_TOKEN`, `AI_PROVIDER`, `AI_MODEL`, `AI_TIMEOUT_MS`.
 * Throws ConfigError on a malformed value.
 */
export function aiConfigFromEnv(env: Env): AiConfig {
  const timeoutMs = env.int("AI_TIMEOUT_MS", DEFAULT_AI_TIMEOUT_MS, 100, 600_000);
  const baseUrl = env.url("AI_BASE_URL");
  const token = env.string("HF_TOKEN");
  const model = env.string("AI_MODEL");
  const provider = env.string("AI_PROVIDER");
  if (provider !== undefined && !(AI_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError(
      `AI_PROVIDER must be one of ${AI_PROVIDERS.join(", ")}, got "${provider}"`,
    );
  }
  if (baseUrl) {
    // The client refuses an endpoint URL together with a provider: say so at start-up.
    if (provider) throw new ConfigError("AI_PROVIDER cannot be combined with AI_BASE_URL");
    return { kind: "openai-compatible", baseUrl, model, token, timeoutMs };
  }
  if (token) {
    // The router behind "auto" only takes Hugging Face tokens; a provider's own key needs its name.
    if (!provider && !token.startsWith("hf_")) {
      throw new ConfigError(
        "HF_TOKEN must be a Hugging Face token (hf_...) unless AI_PROVIDER is set",
      );
    }
    return {
      kind: "hf",
      token,
      provider: (provider ?? DEFAULT_HF_PROVIDER) as AiProvider,
      model: model ?? DEFAULT_HF_MODEL,
      timeoutMs,
    };
  }
  return { kind: "extractive" };
}

/** The `AI` binding the environment describes. */
export function aiFromEnv(env: Env): AI {
  return createAi(aiConfigFromEnv(env));
}

/** Options of the inference adapters. */
export interface InferenceOptions {
  /** Test hook: the fetch the client uses (to observe the HF provider path without network). */
  fetch?: typeof fetch;
}

/** The adapter a configuration describes. */
export function createAi(config: AiConfig, options: InferenceOptions = {}): AI {
  return config.kind === "extractive" ? extractiveAi() : inferenceAi(config, options);
}

/**
 * The adapter over @huggingface/inference. One request per call (`retry_on_error: false`,
 * so a 503 is a failure, not a loop), bounded by `timeoutMs` through an AbortSignal.
 */
export function inferenceAi(
  config: Exclude<AiConfig, { kind: "extractive" }>,
  options: InferenceOptions = {},
): AI {
  // @huggingface/inference is loaded on the first call, not at start-up: the embedded
  // extractive default never needs it, and importing it costs cold start (bench/cold_start.ts).
  const getClient = onFirstUse((): Promise<InferenceClient> =>
    import("@huggingface/inference").then((m) => new m.InferenceClient(config.token ?? ""))
  );
  const configured = config.kind === "hf"
    ? config.model
    : config.model ?? `openai-compatible (${new URL(config.baseUrl).host})`;
  const target = config.kind === "hf"
    ? { provider: config.provider, model: config.model }
    : { endpointUrl: config.baseUrl, model: config.model ?? "" };
  return {
    model: configured,
    async chat(messages) {
      const signal = AbortSignal.timeout(config.timeoutMs);
      const send = options.fetch ?? fetch;
      // Every request of the call shares the deadline, the client's provider-mapping lookup
      // on the HF Hub included (the client passes no signal to that one).
      // A refused, unresolvable or TLS-failing server is named with its cause; the client
      // itself would only say "fetch failed".
      let unreachable: string | undefined;
      const bounded: typeof fetch = (input, init) =>
        send(input, { ...init, signal }).catch((err) => {
          const url = input instanceof Request ? input.url : String(input);
          unreachable = describeFetchFailure(err, url);
          throw err;
        });
      let output: unknown;
      try {
        output = await (await getClient()).chatCompletion(
          {
            ...target,
            messages: messages.map((m) => ({ ...m })),
            max_tokens: MAX_COMPLETION_TOKENS,
          },
          { signal, retry_on_error: false, fetch: bounded },
        );
      } catch (err) {
        const where = config.kind === "hf" ? "" : ` at ${new URL(config.baseUrl).host}`;
        if (signal.aborted) {
          throw new AiError(`AI model${where} timed out after ${config.timeoutMs} ms`);
        }
        const why = unreachable ?? describeFailure(err);
        throw new AiError(`AI model request failed: ${why}`.slice(0, 500));
      }
      if (typeof output !== "object" || output === null || output instanceof Blob) {
        throw new AiError("AI model request failed: the server did not answer with JSON");
      }
      const reported = (output as { model?: unknown }).model;
      return {
        text: completionText(output),
        model: typeof reported === "string" && reported ? reported : configured,
      };
    },
  };
}

/**
 * What went wrong in a client call. For an HTTP error the status and the server's own message
 * (OpenAI's `{error: {message}}` included, which the client reports only generically).
 */
function describeFailure(err: unknown): string {
  const response = (err as { httpResponse?: { status?: number; body?: unknown } })?.httpResponse;
  if (response?.status) {
    const body = response.body as
      | { error?: string | { message?: unknown }; message?: unknown; detail?: unknown }
      | string
      | undefined;
    const detail = typeof body === "string"
      ? body
      : typeof body?.error === "string"
      ? body.error
      : body?.error?.message ?? body?.message ?? body?.detail;
    const text = typeof detail === "string" && detail.trim() ? detail.trim() : "no message";
    return `HTTP ${response.status}: ${text}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The text of a chat completion's first choice, trimmed; null when it is missing or empty.
 * Content given as parts (`[{type: "text", text}]`) is joined.
 */
export function completionText(output: unknown): string | null {
  const choices = (output as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return null;
  const content = (choices[0] as { message?: { content?: unknown } })?.message?.content;
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  }
  text = text.trim();
  return text ? text : null;
}

/** A line that only names the section after it. */
const SECTION_LABEL = /^[A-Z][\w ()./-]{0,40}:$/;

/** A `Label: value` line in the text (e.g. `Top-level files: a, b/`). */
const METADATA_LINE = /^[A-Z][A-Za-z -]{0,30}: /;

/** A leading `Label: value` line of a user message. */
const HEADER_LINE = /^([A-Z][A-Za-z ]{0,30}):[ \t]*(.*)$/;

/**
 * The offline default: summarises the last user message with the extractive summariser.
 * Leading `Label: value` lines are read as a header: `Title` (or `Repository`) boosts its
 * words, `Description` joins the text, the rest is left out.
 */
export function extractiveAi(): AI {
  return {
    model: EXTRACTIVE_MODEL,
    chat(messages) {
      const user = messages.findLast((m) => m.role === "user");
      const lines = (user?.content ?? "").split("\n");
      let title: string | null = null;
      const lead: string[] = [];
      let i = 0;
      for (; i < lines.length; i++) {
        const m = lines[i].match(HEADER_LINE);
        if (!m) break;
        const [, label, value] = m;
        if (label === "Title" || label === "Repository") title ??= value;
        else if (label === "Description" && value) lead.push(value);
      }
      // Section labels ("Content:", "README:") and `Label: list` lines are not prose.
      const rest = lines.slice(i).filter((line) =>
        !SECTION_LABEL.test(line) && !(METADATA_LINE.test(line) && !/[.!?]\s*$/.test(line))
      );
      const body = [...lead, ...rest].join("\n");
      const text = extractiveSummary(body, { title });
      return Promise.resolve({ text, model: EXTRACTIVE_MODEL });
    },
  };
}

/** The summary when the text is empty after trimming (contract rule 3): the model is not called. */
export const NO_CONTENT_SUMMARY = "No content.";

/** The summary when the model returns no text (contract rule 5). */
export const NO_TEXT_SUMMARY = "Unable to generate summary.";

/** Characters of text passed to the model at most (contract rule 2). */
export const MAX_MODEL_TEXT_CHARS = 6000;

/** The first `max` characters of `text`, never ending on half a surrogate pair. */
export function truncateText(text: string, max: number = MAX_MODEL_TEXT_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Asks the model for a summary under the contract's rules: no text back is
 * {@link NO_TEXT_SUMMARY}; a failure or timeout is 502 FETCH_OR_AI_ERROR with its message.
 */
export async function generateSummary(
  ai: AI,
  messages: ChatMessage[],
): Promise<{ summary: string; model: string }> {
  let reply: AiReply;
  try {
    reply = await ai.chat(messages);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ApiError("FETCH_OR_AI_ERROR", message || "AI model request failed");
  }
  return { summary: reply.text ?? NO_TEXT_SUMMARY, model: reply.model };
}
