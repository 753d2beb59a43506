/**
 * WebRTC is closed in both guard modes: a page's RTCPeerConnection with a STUN server on
 * 127.0.0.1 (and one on a name, for good measure) sends datagrams to a UDP listener that
 * counts them. Control: the same page in a context the guard does not watch does send them.
 * Screenshots go through the screenshot app, with a launched Chromium (proxy mode) and with
 * a remote one (in-band mode).
 */
import assert from "node:assert/strict";
import dgram from "node:dgram";
import { createApp } from "../../../../functions/screenshot/app.ts";
import { type BrowserBinding, browserFromEnv } from "../../../../shared/bindings/browser/mod.ts";
import { Env } from "../../../../shared/contract/config.ts";
import { startFixtureServer } from "../../../support/fixture_server.ts";
import { openPolicy } from "../../../support/policy.ts";
import { chromiumTest, startRemoteChromium, testBrowser } from "../../../screenshot/chromium.ts";

/** A UDP socket on 127.0.0.1 that counts what arrives. */
async function udpCounter() {
  const socket = dgram.createSocket("udp4");
  let count = 0;
  socket.on("message", () => count++);
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()));
  return {
    port: socket.address().port,
    get count() {
      return count;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A page that gathers ICE candidates against a STUN server on loopback, by every handle. */
function rtcPage(port: number): string {
  return `<!doctype html><body style="background:#3366cc"><script>
  const frame = document.createElement("iframe");
  document.body.appendChild(frame);
  const handles = [window.RTCPeerConnection, window.webkitRTCPeerConnection,
    frame.contentWindow.RTCPeerConnection];
  for (const PC of handles) {
    try {
      const pc = new PC({ iceServers: [{ urls: "stun:127.0.0.1:${port}" }] });
      pc.createDataChannel("x");
      pc.createOffer().then((offer) => pc.setLocalDescription(offer));
    } catch {}
  }
  document.title = String(handles.filter(Boolean).length);
</script></body>`;
}

async function assertNoDatagrams(binding: BrowserBinding, label: string) {
  const udp = await udpCounter();
  const pages = startFixtureServer({
    "/rtc.html": () =>
      new Response(rtcPage(udp.port), { headers: { "content-type": "text/html" } }),
  });
  try {
    // Control: the same page in a context no guard watches sends STUN to loopback.
    const browser = await binding.get();
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.goto(pages.url("/rtc.html"), { waitUntil: "load" });
      for (let i = 0; i < 40 && udp.count === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(udp.count > 0, `${label}: control page sent no STUN datagram`);
    } finally {
      await context.close();
    }

    const before = udp.count;
    const app = createApp({ BROWSER: binding, fetchPolicy: openPolicy() }, { log: () => {} });
    const res = await app.request(`/screenshot?url=${encodeURIComponent(pages.url("/rtc.html"))}`);
    assert.equal(res.status, 200, await res.clone().text());
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 1_500)); // late candidates would have arrived
    assert.equal(udp.count, before, `${label}: a capture sent UDP to loopback`);
  } finally {
    await pages.close();
    await udp.close();
  }
}

chromiumTest(
  "no WebRTC datagram leaves a capture (proxy mode, launched Chromium)",
  async (_t, chrome) => {
    const binding = testBrowser(chrome);
    try {
      await assertNoDatagrams(binding, "launch");
    } finally {
      await binding.close();
    }
  },
);

chromiumTest(
  "no WebRTC datagram leaves a capture (in-band mode, remote Chromium)",
  async (_t, chrome) => {
    const remote = await startRemoteChromium(chrome);
    const binding = browserFromEnv(new Env({ BROWSER_WS_ENDPOINT: remote.endpoint }));
    try {
      await assertNoDatagrams(binding, "connect");
    } finally {
      await binding.close();
      await remote.stop();
    }
  },
);
