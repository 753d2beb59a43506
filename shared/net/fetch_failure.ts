/**
 * Why a `fetch` to a configured API failed, in words an operator can act on: Deno's own error
 * is "fetch failed" with the reason buried in `cause` ("tcp connect error: Connection refused
 * (os error 111)", "dns error: …", "invalid peer certificate: …"). Used for the GitHub API and
 * `AI_BASE_URL`; the message names the host (never the path or query, which may hold keys).
 */

/** The kinds of failure a caller can tell apart. */
export type FetchFailureCause =
  | "refused"
  | "dns"
  | "timeout"
  | "tls"
  | "reset"
  | "unreachable"
  | "other";

/** Patterns over the error's message and its cause's, first match wins. */
const CAUSES: [FetchFailureCause, RegExp][] = [
  ["timeout", /timed? ?out|TimeoutError|deadline/i],
  ["refused", /connection refused|ECONNREFUSED|os error 111\b|os error 61\b/i],
  [
    "dns",
    /dns error|failed to lookup address|name or service not known|ENOTFOUND|EAI_AGAIN|nodename nor servname/i,
  ],
  ["tls", /tls|ssl|certificate|handshake|InvalidContentType|corrupt message/i],
  ["reset", /connection reset|ECONNRESET|connection closed|broken pipe|EPIPE/i],
  ["unreachable", /unreachable|no route to host|EHOSTUNREACH|ENETUNREACH/i],
];

/** What each cause reads as. */
const WORDS: Record<FetchFailureCause, string> = {
  refused: "connection refused (nothing listens there)",
  dns: "DNS lookup failed (no such host)",
  timeout: "timed out",
  tls: "TLS failed",
  reset: "the server closed the connection",
  unreachable: "network unreachable",
  other: "request failed",
};

/** The text of an error and of its causes, joined. */
function errorChain(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Error) {
      parts.push(`${e.name}: ${e.message}`);
      e = e.cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return parts.join(" <- ");
}

/** Classifies a failed fetch by its error (and its causes). */
export function fetchFailureCause(err: unknown): FetchFailureCause {
  const text = errorChain(err);
  return CAUSES.find(([, pattern]) => pattern.test(text))?.[0] ?? "other";
}

/** The host of `url` (with its port), or "the server" when it does not parse. */
function hostOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return "the server";
  }
}

/** The innermost cause's message after Deno's "client error (Connect): " prefixes. */
function detail(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause) e = e.cause;
  const message = e instanceof Error ? e.message : String(e);
  return message.split(/\):\s/).at(-1)?.trim().slice(0, 160) ?? "";
}

/**
 * "<host>: <cause>", e.g. "api.github.com: connection refused (nothing listens there)" or
 * "127.0.0.1:8080: TLS failed (invalid peer certificate: UnknownIssuer)".
 */
export function describeFetchFailure(err: unknown, url: string | URL): string {
  const cause = fetchFailureCause(err);
  const host = hostOf(url);
  if (cause === "tls" || cause === "other") {
    const why = detail(err);
    return why ? `${host}: ${WORDS[cause]} (${why})` : `${host}: ${WORDS[cause]}`;
  }
  return `${host}: ${WORDS[cause]}`;
}
