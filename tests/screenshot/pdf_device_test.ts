/**
 * `format=pdf` and `device` on a real Chromium: the PDF is a PDF whose MediaBox is the paper's
 * size (turned by `landscape`), with the page's background printed; a device preset gives the
 * image the device's pixels and the page the device's user agent and touch.
 */
import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { KnownDevices } from "puppeteer-core";
import { createApp } from "../../functions/screenshot/app.ts";
import { DEVICES } from "../../functions/screenshot/schema.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, rgb } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest } from "./chromium.ts";
import { testBrowser } from "./chromium.ts";

const PAGE = `<!doctype html><style>
  body { margin: 0; background: #00ff00; }
  @media (pointer: coarse) { body { background: #0000ff; } }
</style><body><p>Printed</p></body>`;

/** Width and height in points of every page's MediaBox (Chromium writes them uncompressed). */
function mediaBoxes(pdf: Uint8Array): [number, number][] {
  const text = new TextDecoder("latin1").decode(pdf);
  return [...text.matchAll(/\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
}

/** Asserts one page of `width` × `height` points (paper sizes are rounded to a point). */
function assertPages(pdf: Uint8Array, width: number, height: number): void {
  const boxes = mediaBoxes(pdf);
  assert.equal(boxes.length, 1, `pages: ${JSON.stringify(boxes)}`);
  const [[w, h]] = boxes;
  assert.ok(Math.abs(w - width) <= 1 && Math.abs(h - height) <= 1, `${w}x${h}`);
}

/** The text of every Flate stream of the PDF (its page content among them). */
function contentStreams(pdf: Uint8Array): string {
  const text = new TextDecoder("latin1").decode(pdf);
  const out: string[] = [];
  for (const m of text.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = text.indexOf("endstream", start);
    try {
      out.push(new TextDecoder("latin1").decode(inflateSync(pdf.subarray(start, end))));
    } catch {
      // not a Flate stream: not page content
    }
  }
  return out.join("\n");
}

chromiumTest(
  "format=pdf prints the page on the paper; device emulates a phone",
  async (t, chrome) => {
    let userAgent: string | null = null;
    const server = startFixtureServer({
      "/page.html": () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
      "/ua.html": (req) => {
        userAgent = req.headers.get("user-agent");
        return new Response(
          `<!doctype html><style>body{margin:0}` +
            `@media (pointer: coarse){body{background:#0000ff}}</style>`,
          { headers: { "content-type": "text/html" } },
        );
      },
    });
    const browser = testBrowser(chrome);
    const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
    const shoot = (path: string, params = "", headers?: HeadersInit) =>
      app.request(`/screenshot?url=${encodeURIComponent(server.url(path))}${params}`, { headers });
    try {
      await t.step("default paper is A4 portrait; a real PDF with its background", async () => {
        const res = await shoot("/page.html", "&format=pdf");
        assert.equal(res.status, 200, await res.clone().text());
        assert.equal(res.headers.get("content-type"), "application/pdf");
        const pdf = new Uint8Array(await res.arrayBuffer());
        assert.equal(new TextDecoder().decode(pdf.subarray(0, 5)), "%PDF-");
        assertPages(pdf, 595.3, 841.9);
        // printBackground: the page's green fill is painted (`0 1 0 rg` in the content stream).
        assert.match(contentStreams(pdf), /\b0 1 0 rg\b/);
      });

      await t.step("paper=letter&landscape=true turns the page", async () => {
        const res = await shoot("/page.html", "&format=pdf&paper=letter&landscape=true");
        const pdf = new Uint8Array(await res.arrayBuffer());
        assertPages(pdf, 792, 612);
      });

      await t.step("paper=a3 and legal", async () => {
        const a3 = new Uint8Array(
          await (await shoot("/page.html", "&format=pdf&paper=a3")).arrayBuffer(),
        );
        assertPages(a3, 841.9, 1190.6);
        const legal = new Uint8Array(
          await (await shoot("/page.html", "&format=pdf&paper=legal")).arrayBuffer(),
        );
        assertPages(legal, 612, 1008);
      });

      await t.step("the same cache and ETag rules as images", async () => {
        const first = await shoot("/page.html", "&format=pdf&paper=a5");
        await first.arrayBuffer();
        const etag = first.headers.get("etag");
        assert.ok(etag);
        const again = await shoot("/page.html", "&format=pdf&paper=a5", { "if-none-match": etag });
        assert.equal(again.status, 304);
        assert.equal(again.headers.get("x-screenshot-cache"), "HIT");
      });

      await t.step("device: the device's pixels, touch and user agent", async () => {
        const name = "iPhone 15 Pro";
        const device = KnownDevices[name];
        const res = await shoot("/ua.html", `&device=${encodeURIComponent(name)}`);
        assert.equal(res.status, 200, await res.clone().text());
        const png = decodePng(new Uint8Array(await res.arrayBuffer()));
        const { width, height, deviceScaleFactor } = device.viewport;
        assert.deepEqual([png.width, png.height], [
          width * deviceScaleFactor!,
          height * deviceScaleFactor!,
        ]);
        // hasTouch makes the primary pointer coarse: the page's touch style applies.
        assert.deepEqual(png.pixel(10, 10).slice(0, 3), rgb("#0000ff"));
        assert.equal(userAgent, device.userAgent);
        const desktop = decodePng(new Uint8Array(await (await shoot("/ua.html")).arrayBuffer()));
        assert.deepEqual(desktop.pixel(10, 10).slice(0, 3), rgb("#ffffff"));
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
);

Deno.test("every offered device is one of puppeteer's known devices", () => {
  assert.ok(DEVICES.length >= 24);
  for (const name of DEVICES) assert.ok(name in KnownDevices, name);
});
