/**
 * The in-band guard on a real remote Chromium (started with `--remote-debugging-port`, reached
 * through `BROWSER_WS_ENDPOINT`): a page on an allowed origin reaches for a loopback target
 * by every route a page has (subresources, a redirect, an out-of-process iframe, fetch, XHR,
 * WebSockets, a dedicated, a shared and a service worker, popups) and the target counts what
 * arrives. The browser resolves `*.test` to 127.0.0.1 itself (`--host-resolver-rules`), as a
 * rebinding attacker's names would; the guard's resolver says the same.
 */
import assert from "node:assert/strict";
import type { Browser } from "puppeteer-core";
import { browserFromEnv } from "../../../../shared/bindings/browser/mod.ts";
import { guardContext } from "../../../../shared/bindings/browser/cdp_guard.ts";
import { Env } from "../../../../shared/contract/config.ts";
import type { FetchPolicy } from "../../../../shared/net/safe_fetch.ts";
import { type FixtureServer, startFixtureServer } from "../../../support/fixture_server.ts";
import { guardedPolicy } from "../../../support/policy.ts";
import { chromiumTest, startRemoteChromium } from "../../../screenshot/chromium.ts";

const JS = { "content-type": "text/javascript" };
const HTML = { "content-type": "text/html" };

/** What the page reaches for, by path on the target. */
const ROUTES = [
  "/img.png",
  "/redirected.png",
  "/style.css",
  "/frame.html",
  "/fetch",
  "/xhr",
  "/ws",
  "/ws-name",
  "/from-oopif",
  "/from-worker",
  "/from-shared",
];

/**
 * Also tried by the page, never reached by design even with the policy open: service
 * workers get no network under the in-band guard, and `window.open` returns null.
 */
const ALWAYS_CLOSED = ["/from-sw", "/popup.html", "/ws-worker"];

/** The target: counts every request, upgrades the WebSocket paths. */
function startTarget(): FixtureServer {
  const upgrade = (req: Request) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => socket.send("hello");
    return response;
  };
  return startFixtureServer({ "/ws": upgrade, "/ws-name": upgrade, "/ws-worker": upgrade });
}

/** The attacker's pages, on the allowed origins `public.test` and `other.test`. */
function startPages(target: FixtureServer): FixtureServer {
  const t = target.port;
  const direct = `http://127.0.0.1:${t}`;
  return startFixtureServer({
    "/attack.html": (_req, url) =>
      new Response(
        `<!doctype html><body style="margin:0;background:#3366cc">
<link rel="stylesheet" href="http://second.test:${t}/style.css">
<img src="${direct}/img.png">
<img src="/redirect?to=${encodeURIComponent(`${direct}/redirected.png`)}">
<iframe src="http://second.test:${t}/frame.html"></iframe>
<iframe src="http://other.test:${url.port}/oopif.html"></iframe>
<a id="blank" href="${direct}/popup.html" target="_blank">popup</a>
<script>
  fetch("http://second.test:${t}/fetch").catch(() => {});
  fetch("http://localhost:${t}/localhost").catch(() => {});
  const xhr = new XMLHttpRequest();
  xhr.open("GET", "http://[::ffff:127.0.0.1]:${t}/xhr");
  xhr.send();
  const sockets = [];
  for (const u of ["ws://127.0.0.1:${t}/ws", "ws://second.test:${t}/ws-name"]) {
    try { const s = new WebSocket(u); s.onmessage = () => { document.title += "leak"; }; sockets.push(s); } catch {}
  }
  new Worker("/worker.js");
  try { new SharedWorker("/shared.js"); } catch {}
  navigator.serviceWorker?.register("/sw.js").catch(() => {});
  window.open("${direct}/popup.html");
  document.getElementById("blank").click();
</script></body>`,
        { headers: HTML },
      ),
    "/oopif.html": () =>
      new Response(`<script>fetch("${direct}/from-oopif").catch(() => {});</script>`, {
        headers: HTML,
      }),
    "/worker.js": () =>
      new Response(
        `fetch("${direct}/from-worker").catch(() => {});
         try { new WebSocket("ws://127.0.0.1:${t}/ws-worker"); } catch {}`,
        { headers: JS },
      ),
    "/shared.js": () =>
      new Response(`fetch("${direct}/from-shared").catch(() => {});`, { headers: JS }),
    "/sw.js": () =>
      new Response(
        `self.addEventListener("install", (e) => e.waitUntil(fetch("${direct}/from-sw").catch(() => {})));`,
        { headers: JS },
      ),
  });
}

/** Loads the attack page in a fresh guarded context and lets it run. */
async function visit(browser: Browser, policy: FetchPolicy, url: string) {
  const context = await browser.createBrowserContext();
  const guard = await guardContext(browser, context.id!, { mode: "inband", policy });
  try {
    const page = await context.newPage();
    await guard.ready((page.target() as unknown as { _targetId: string })._targetId);
    await page.goto(url, { waitUntil: "load", timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 2_000)); // workers, popups, sockets
    return guard;
  } finally {
    await context.close().catch(() => {});
    guard.close();
  }
}

chromiumTest(
  "in-band guard: a remote browser's page reaches no private address",
  async (t, chrome) => {
    const target = startTarget();
    const pages = startPages(target);
    const pub = `http://public.test:${pages.port}`;
    const other = `http://other.test:${pages.port}`;
    const remote = await startRemoteChromium(chrome, [
      "--host-resolver-rules=MAP *.test 127.0.0.1",
      "--disable-popup-blocking", // the attacker's best case: popups open
      // Service workers need a secure context; the fixture is plain http.
      `--unsafely-treat-insecure-origin-as-secure=${pub}`,
    ]);
    const binding = browserFromEnv(new Env({ BROWSER_WS_ENDPOINT: remote.endpoint }));
    const names = {
      "public.test": "127.0.0.1",
      "other.test": "127.0.0.1",
      "second.test": "127.0.0.1",
    };
    try {
      const browser = await binding.get();

      await t.step("control: with the policy open, each route does reach the target", async () => {
        const open = guardedPolicy(names, [], { allowPrivate: true });
        await visit(browser, open, `${pub}/attack.html`);
        const missed = ROUTES.filter((path) => target.hits(path) === 0);
        assert.deepEqual(missed, [], "the control run never requested these");
      });

      await t.step("guarded: the page loads and the target sees zero requests", async () => {
        // The worker scripts live on a fresh origin port, so nothing is served from cache.
        const before = target.hits();
        const guard = await visit(
          browser,
          guardedPolicy(names, [pub, other]),
          `${pub}/attack.html`,
        );
        assert.equal(pages.hits("/attack.html") >= 2, true);
        assert.equal(target.hits(), before, "the target was reached through the browser");
        assert.ok(guard.allowed > 0, "the allowed page's own requests went through");
        for (const path of ALWAYS_CLOSED) assert.equal(target.hits(path), 0, path);
        const refused = new Set(guard.failures.map((f) => f.host));
        for (const host of ["127.0.0.1", "second.test", "localhost", "::ffff:7f00:1"]) {
          assert.ok(refused.has(host), `no refusal recorded for ${host}`);
        }
        assert.equal(guard.violation, undefined);
      });

      await t.step(
        "a response from a private address after a public answer is a violation",
        async () => {
          // The guard's resolver says public, the browser connects to loopback: DNS rebinding.
          const rebinding = guardedPolicy({ "public.test": "93.184.215.14" }, []);
          const guard = await visit(browser, rebinding, `${pub}/screenshot/solid.html`);
          assert.match(guard.violation ?? "", /private or reserved address/);
        },
      );
    } finally {
      await binding.close();
      await remote.stop();
      await pages.close();
      await target.close();
    }
  },
);
