/**
 * The in-band guard: the address policy applied over CDP, inside the browser's own request
 * pipeline, with no listener of ours for the browser to reach (a remote browser at the edge).
 *
 * One browser-level CDP session auto-attaches to every new target with
 * `waitForDebuggerOnStart`, so a page, popup, service worker or shared worker is held before
 * its first request; each of those sessions auto-attaches in turn to its own children
 * (out-of-process iframes, dedicated workers). Before a target of a guarded context is let
 * go, it gets:
 * - `Fetch.enable` on every URL: each request (document, subresource, each redirect hop,
 *   fetch/XHR, worker script, the requests of dedicated workers) is paused, its host checked
 *   with `checkedAddresses` (literal private addresses, private names, names resolving to a
 *   private address: refused), then continued or failed;
 * - the page script (page_script.ts): no WebRTC, no scriptable popups, and a WebSocket that
 *   asks this guard (a CDP binding) before the real socket opens;
 * - `Network.enable`, to count the bytes and to see the address each response actually came
 *   from: a private one (DNS rebinding between our check and the browser's own lookup) is
 *   recorded as a violation, and the capture is refused.
 *
 * In proxy mode (a local Chromium behind the policy proxy) the same sessions install only the
 * page script: the proxy does the address policy.
 */
import type { Browser, CDPSession } from "puppeteer-core";
import type { Protocol } from "puppeteer-core";
import { isPublicAddress, normaliseHost } from "../../net/address.ts";
import type { FetchPolicy } from "../../net/safe_fetch.ts";
import { checkedAddresses, GuardRefusal, isOpen } from "./address_check.ts";
import { frameScript, type WebSocketCheck, workerScript } from "./page_script.ts";

/** A request or connection the guard refused, or could not check. */
export interface GuardFailure {
  /** Host as the page named it (no brackets). */
  host: string;
  /** The reason, worded for an API error message. */
  message: string;
  /** True when the address policy refused it (as opposed to a DNS failure). */
  refused: boolean;
}

/** What a capture asks of the guard for its browser context. */
export interface ContextGuardOptions {
  /**
   * `inband`: check every request over CDP (remote browser). `script`: only the page script
   * (the policy proxy does the rest).
   */
  mode: "inband" | "script";
  policy: FetchPolicy;
  /** Download budget of the context (bytes as Chromium counts them on the wire). */
  maxBytes?: number;
}

/** The guard of one browser context, for as long as its capture runs. */
export interface ContextGuard {
  /** Every refusal so far, oldest first. */
  readonly failures: readonly GuardFailure[];
  /**
   * Why the capture must not be returned, if it must not: a response came from a private
   * address although its host passed the check (DNS rebinding), or the setup of a target
   * failed so that it could not be guarded.
   */
  readonly violation: string | undefined;
  /** Requests let through so far. */
  readonly allowed: number;
  /** Resolves once the target (a page of this context) is guarded, or rejects. */
  ready(targetId: string): Promise<void>;
  /** Stops guarding the context (its targets go with the context). */
  close(): void;
}

/** The guard of one browser connection; one per `Browser`, made on first use. */
const guards = new WeakMap<Browser, Promise<BrowserGuard>>();

/** Guards `contextId` of `browser` until `close()`; call before the context opens a page. */
export async function guardContext(
  browser: Browser,
  contextId: string,
  options: ContextGuardOptions,
): Promise<ContextGuard> {
  let pending = guards.get(browser);
  if (!pending) {
    pending = BrowserGuard.start(browser);
    guards.set(browser, pending);
    pending.catch(() => guards.delete(browser));
  }
  return (await pending).watch(contextId, options);
}

/** A deferred promise keyed by target id. */
interface Readiness {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Readiness {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

class ContextState implements ContextGuard {
  readonly failures: GuardFailure[] = [];
  violation: string | undefined;
  allowed = 0;
  bytes = 0;
  closed = false;
  readonly #ready = new Map<string, Readiness>();
  readonly ws: WebSocketCheck | undefined;
  /** One address check per host and capture: the page's hundred images share a lookup. */
  readonly #checks = new Map<string, Promise<void>>();

  constructor(readonly options: ContextGuardOptions, private readonly onClose: () => void) {
    const id = crypto.randomUUID().replaceAll("-", "");
    this.ws = options.mode === "inband"
      ? {
        binding: `__guard_ws_${id.slice(0, 8)}`,
        resolve: `__guard_ws_done_${id.slice(8, 16)}`,
        token: id,
      }
      : undefined;
  }

  readiness(targetId: string): Readiness {
    let r = this.#ready.get(targetId);
    if (!r) this.#ready.set(targetId, r = deferred());
    return r;
  }

  ready(targetId: string): Promise<void> {
    return this.readiness(targetId).promise;
  }

  close(): void {
    this.closed = true;
    this.onClose();
  }

  /** Resolves when `url` may be requested; rejects with GuardRefusal otherwise. */
  check(url: URL): Promise<void> {
    const budget = this.options.maxBytes ?? Infinity;
    if (this.bytes > budget) {
      return Promise.reject(new GuardRefusal(`Page exceeded ${budget} bytes`, false));
    }
    if (!["http:", "https:", "ws:", "wss:"].includes(url.protocol)) {
      return Promise.reject(new GuardRefusal(`Refused scheme ${url.protocol}`, true));
    }
    const host = normaliseHost(url.hostname);
    const origins = originsOf(url);
    const key = `${host} ${origins.join(" ")}`;
    let check = this.#checks.get(key);
    if (!check) {
      check = checkedAddresses(this.options.policy, host, origins).then(() => {});
      this.#checks.set(key, check);
    }
    return check;
  }

  fail(url: URL, err: unknown): GuardFailure {
    const host = normaliseHost(url.hostname);
    const failure = err instanceof GuardRefusal
      ? { host, message: err.message, refused: err.refused }
      : { host, message: `Could not check ${host}`, refused: false };
    this.failures.push(failure);
    return failure;
  }

  /** A response arrived from `address`: fine if public or if its origin is let through. */
  connectedTo(url: URL, address: string | undefined): void {
    if (!address || isOpen(this.options.policy, originsOf(url))) return;
    if (isPublicAddress(address)) return;
    const host = normaliseHost(url.hostname);
    const message = `Refused: ${host} was reached at a private or reserved address ` +
      "(its DNS answer changed after the check)";
    this.failures.push({ host, message, refused: true });
    this.violation ??= message;
  }
}

/** The origins a URL counts as for `allowOrigins` (a WebSocket counts as its http origin). */
function originsOf(url: URL): string[] {
  if (url.protocol === "ws:" || url.protocol === "wss:") {
    const http = new URL(url.href);
    http.protocol = url.protocol === "ws:" ? "http:" : "https:";
    return [http.origin];
  }
  return [url.origin];
}

type TargetInfo = Protocol.Target.TargetInfo;

class BrowserGuard {
  readonly #contexts = new Map<string, ContextState>();

  private constructor(private readonly root: CDPSession) {}

  static async start(browser: Browser): Promise<BrowserGuard> {
    const root = await browser.target().createCDPSession();
    const guard = new BrowserGuard(root);
    root.on("Target.attachedToTarget", (event) => guard.#attached(root, event, undefined));
    await root.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    });
    browser.once("disconnected", () => guards.delete(browser));
    return guard;
  }

  watch(contextId: string, options: ContextGuardOptions): ContextGuard {
    const state: ContextState = new ContextState(options, () => {
      if (this.#contexts.get(contextId) === state) this.#contexts.delete(contextId);
    });
    this.#contexts.set(contextId, state);
    return state;
  }

  /** A target attached (held before it runs): guard it if its context is watched. */
  #attached(
    parent: CDPSession,
    event: Protocol.Target.AttachedToTargetEvent,
    inherited: ContextState | undefined,
  ): void {
    const { sessionId, targetInfo } = event;
    const session = parent.connection()?.session(sessionId);
    if (!session) return;
    const state = inherited ??
      (targetInfo.browserContextId ? this.#contexts.get(targetInfo.browserContextId) : undefined);
    if (!state || state.closed) {
      // Not ours (another capture's context has its own state; anything else is let go).
      void session.send("Runtime.runIfWaitingForDebugger").catch(() => {})
        .then(() => parent.send("Target.detachFromTarget", { sessionId }).catch(() => {}));
      return;
    }
    const ready = state.readiness(targetInfo.targetId);
    this.#setUp(session, targetInfo, state).then(
      () => ready.resolve(),
      (err) => {
        ready.reject(err);
        // A target that closed while being set up is no threat any more.
        if ((err as Error)?.name === "TargetCloseError") return;
        // Fail closed: a target we could not guard never runs; a page is closed.
        state.violation ??= `Could not guard a ${targetInfo.type} of the page`;
        if (targetInfo.type === "page") {
          void this.root.send("Target.closeTarget", { targetId: targetInfo.targetId })
            .catch(() => {});
        }
      },
    );
  }

  async #setUp(session: CDPSession, info: TargetInfo, state: ContextState): Promise<void> {
    const inband = state.options.mode === "inband";
    const frame = info.type === "page" || info.type === "iframe";
    const worker = info.type.endsWith("worker");
    session.on("Target.attachedToTarget", (event) => this.#attached(session, event, state));
    const steps: Promise<unknown>[] = [];
    if (inband && frame) {
      session.on("Fetch.requestPaused", (event) => this.#paused(session, event, state));
      steps.push(session.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }));
    }
    if (inband && (frame || worker)) {
      session.on("Network.responseReceived", (event) => {
        state.connectedTo(safeUrl(event.response.url), event.response.remoteIPAddress);
      });
      session.on("Network.dataReceived", (event) => {
        state.bytes += event.encodedDataLength || event.dataLength;
      });
      steps.push(
        session.send("Network.enable").catch(() => {
          // Not every worker type has the Network domain; its requests are still paused.
        }),
      );
    }
    if (inband && info.type === "shared_worker") {
      // Its own requests (and script imports) are paused in its own session.
      session.on("Fetch.requestPaused", (event) => this.#paused(session, event, state));
      steps.push(session.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }));
    }
    if (inband && info.type === "service_worker") {
      // A service worker cannot be given the worker script before it starts (evaluating in
      // one held at start deadlocks), so it gets no network at all: its script fetch, and
      // anything after, is refused, and the worker never installs.
      session.on("Fetch.requestPaused", (event) => {
        const url = safeUrl(event.request.url);
        state.fail(url, new GuardRefusal("Service workers are not available to captures", true));
        void session.send("Fetch.failRequest", {
          requestId: event.requestId,
          errorReason: "AccessDenied",
        }).catch(() => {});
      });
      steps.push(session.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }));
    }
    if (frame) {
      const ws = state.ws;
      if (ws) {
        session.on("Runtime.bindingCalled", (event) => this.#webSocket(session, event, state));
        // Binding calls are only reported to a session with the Runtime domain on.
        steps.push(
          session.send("Runtime.enable").then(() =>
            session.send("Runtime.addBinding", { name: ws.binding })
          ),
        );
      }
      steps.push(
        session.send("Page.enable").then(() =>
          session.send("Page.addScriptToEvaluateOnNewDocument", {
            source: frameScript(ws),
            runImmediately: true,
          })
        ),
      );
    } else if (worker && info.type !== "service_worker") {
      steps.push(session.send("Runtime.evaluate", { expression: workerScript(inband) }));
    }
    steps.push(session.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    }));
    await Promise.all(steps);
    await session.send("Runtime.runIfWaitingForDebugger");
  }

  #paused(session: CDPSession, event: Protocol.Fetch.RequestPausedEvent, state: ContextState) {
    const { requestId } = event;
    const url = safeUrl(event.request.url);
    // Responses are not intercepted (request stage only); data: and blob: never pause.
    state.check(url).then(
      () => {
        state.allowed++;
        return session.send("Fetch.continueRequest", { requestId });
      },
      (err) => {
        const failure = state.fail(url, err);
        return session.send("Fetch.failRequest", {
          requestId,
          errorReason: failure.refused ? "AccessDenied" : "NameNotResolved",
        });
      },
    ).catch(() => {
      // The target went away meanwhile: nothing left to continue or fail.
    });
  }

  #webSocket(session: CDPSession, event: Protocol.Runtime.BindingCalledEvent, state: ContextState) {
    const ws = state.ws;
    if (!ws || event.name !== ws.binding) return;
    let id = 0;
    let url: URL;
    try {
      const payload = JSON.parse(event.payload) as { id: number; url: string };
      id = Number(payload.id);
      url = new URL(payload.url);
    } catch {
      return;
    }
    const answer = (allowed: boolean) =>
      session.send("Runtime.evaluate", {
        expression: `globalThis[${JSON.stringify(ws.resolve)}](${id}, ${allowed}, ${
          JSON.stringify(ws.token)
        })`,
        contextId: event.executionContextId,
      }).catch(() => {});
    state.check(url).then(
      () => {
        state.allowed++;
        return answer(true);
      },
      (err) => {
        state.fail(url, err);
        return answer(false);
      },
    );
  }
}

/** A URL, or one that no check lets through. */
function safeUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    return new URL("invalid://invalid/");
  }
}
