/**
 * The script a capture installs in every frame before any page script runs (and in every
 * worker before its first line): it takes away what could reach the network around the
 * guards. WebRTC goes (STUN/TURN are UDP, which neither the proxy nor CDP interception
 * sees); `window.open` returns null (a popup's first empty document is scriptable by its
 * opener before any guard can attach to it); and, for the in-band guard, `WebSocket` asks
 * the service to check the host before the real socket is opened (CDP interception does not
 * see WebSocket handshakes).
 */

/** Globals removed from every frame and worker: the whole of WebRTC's network surface. */
export const WEBRTC_GLOBALS: readonly string[] = [
  "RTCPeerConnection",
  "webkitRTCPeerConnection",
  "RTCDataChannel",
  "RTCIceCandidate",
  "RTCIceTransport",
  "RTCDtlsTransport",
  "RTCSctpTransport",
  "RTCRtpSender",
  "RTCRtpReceiver",
  "RTCRtpTransceiver",
  "RTCSessionDescription",
  "RTCCertificate",
];

/** How a frame's WebSocket check talks to the service. */
export interface WebSocketCheck {
  /** Name of the CDP binding (`Runtime.addBinding`) the shim calls with `{id, url}`. */
  binding: string;
  /** Name of the non-writable global the service calls back with `(id, allowed, token)`. */
  resolve: string;
  /** Secret of this capture: a page calling the callback itself cannot approve anything. */
  token: string;
}

/** The script for frames; `ws` set adds the WebSocket check (in-band guard), else it stays. */
export function frameScript(ws?: WebSocketCheck): string {
  return `(() => {
${removeWebRtc()}
  try {
    Object.defineProperty(globalThis, "open", {
      value: function open() { return null; }, writable: false, configurable: false,
    });
  } catch {}
${ws ? webSocketShim(ws) : ""}
})();`;
}

/** The script for workers: no WebRTC, and no WebSocket at all under the in-band guard. */
export function workerScript(refuseWebSockets: boolean): string {
  const ws = refuseWebSockets
    ? `  try {
    Object.defineProperty(globalThis, "WebSocket", {
      value: function WebSocket() {
        throw new DOMException("WebSockets are not available to workers here", "SecurityError");
      },
      writable: false, configurable: false,
    });
  } catch {}`
    : "";
  return `(() => {\n${removeWebRtc()}\n${ws}\n})(); 0`;
}

function removeWebRtc(): string {
  return `  for (const name of ${JSON.stringify(WEBRTC_GLOBALS)}) {
    try { delete globalThis[name]; } catch {}
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false }); } catch {}
  }`;
}

/**
 * A WebSocket that opens the real one only once the service said yes. The native
 * constructor stays in this closure; the approval callback is a non-configurable global
 * that checks the capture's token, so page script can neither reach the native constructor
 * nor approve a URL itself.
 */
function webSocketShim({ binding, resolve, token }: WebSocketCheck): string {
  return `
  const NativeWebSocket = globalThis.WebSocket;
  if (!NativeWebSocket) return;
  // The binding is looked up per socket (it may appear after this script ran); a page that
  // replaces it only denies itself sockets: approval comes through the callback below.
  const ask = (payload) => globalThis[${JSON.stringify(binding)}](payload);
  const pending = new Map();
  let nextId = 0;
  Object.defineProperty(globalThis, ${JSON.stringify(resolve)}, {
    value: (id, allowed, token) => {
      if (token !== ${JSON.stringify(token)}) return;
      const settle = pending.get(id);
      pending.delete(id);
      if (settle) settle(allowed === true);
    },
    writable: false, configurable: false, enumerable: false,
  });
  const STATES = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 };
  class WebSocket extends EventTarget {
    #socket = null;
    #state = 0;
    #binaryType = "blob";
    #url;
    constructor(url, protocols) {
      super();
      let parsed;
      try { parsed = new URL(String(url), location.href); } catch {
        throw new DOMException("The URL '" + url + "' is invalid.", "SyntaxError");
      }
      if (parsed.protocol === "http:") parsed.protocol = "ws:";
      if (parsed.protocol === "https:") parsed.protocol = "wss:";
      if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:" || parsed.hash) {
        throw new DOMException("The URL's scheme must be either 'ws' or 'wss'.", "SyntaxError");
      }
      this.#url = parsed.href;
      const id = ++nextId;
      pending.set(id, (allowed) => allowed ? this.#open(protocols) : this.#refuse());
      try { ask(JSON.stringify({ id, url: this.#url })); } catch { pending.delete(id); queueMicrotask(() => this.#refuse()); }
    }
    get url() { return this.#url; }
    get readyState() { return this.#socket ? this.#socket.readyState : this.#state; }
    get protocol() { return this.#socket ? this.#socket.protocol : ""; }
    get extensions() { return this.#socket ? this.#socket.extensions : ""; }
    get bufferedAmount() { return this.#socket ? this.#socket.bufferedAmount : 0; }
    get binaryType() { return this.#binaryType; }
    set binaryType(value) { this.#binaryType = value; if (this.#socket) this.#socket.binaryType = value; }
    send(data) {
      if (!this.#socket) throw new DOMException("Still in CONNECTING state.", "InvalidStateError");
      this.#socket.send(data);
    }
    close(code, reason) {
      if (this.#socket) return this.#socket.close(code, reason);
      if (this.#state !== 3) { this.#state = 3; this.#emit(new CloseEvent("close", { code: 1006, wasClean: false })); }
    }
    #open(protocols) {
      if (this.#state === 3) return;
      const socket = protocols === undefined ? new NativeWebSocket(this.#url) : new NativeWebSocket(this.#url, protocols);
      socket.binaryType = this.#binaryType;
      this.#socket = socket;
      for (const type of ["open", "message", "error", "close"]) {
        socket.addEventListener(type, (event) => this.#emit(new event.constructor(type, event)));
      }
    }
    #refuse() {
      if (this.#state === 3) return;
      this.#state = 3;
      this.#emit(new Event("error"));
      this.#emit(new CloseEvent("close", { code: 1006, wasClean: false }));
    }
    #emit(event) {
      const handler = this["on" + event.type];
      this.dispatchEvent(event);
      if (typeof handler === "function") { try { handler.call(this, event); } catch (err) { queueMicrotask(() => { throw err; }); } }
    }
  }
  for (const [name, value] of Object.entries(STATES)) {
    Object.defineProperty(WebSocket, name, { value, enumerable: true });
    Object.defineProperty(WebSocket.prototype, name, { value, enumerable: true });
  }
  for (const type of ["open", "message", "error", "close"]) WebSocket.prototype["on" + type] = null;
  globalThis.WebSocket = WebSocket;`;
}
