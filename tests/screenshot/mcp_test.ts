/**
 * `POST /mcp` of screenshot, through the MCP SDK's own client: the image comes back as MCP
 * image content (base64 PNG), the same bytes as `GET /screenshot`.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import type { BrowserBinding } from "../../shared/bindings/browser/mod.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng } from "../support/png.ts";
import { guardedPolicy } from "../support/policy.ts";
import { assertToolError, assertTools, mcpSession } from "../support/mcp_client.ts";
import { chromiumTest, testBrowser } from "./chromium.ts";

/** A binding that fails the test if anything asks it for a browser. */
const untouchable: BrowserBinding = {
  mode: "launch",
  get: () => Promise.reject(new Error("the browser must not be used")),
  close: () => Promise.resolve(),
};

Deno.test("screenshot over MCP: the tool, and errors before any browser", async () => {
  const app = createApp({ BROWSER: untouchable, fetchPolicy: guardedPolicy() }, {
    log: () => {},
  });
  await using mcp = await mcpSession(app);
  const tools = await assertTools(mcp, { screenshot_page: ["url"] });
  const properties = tools.get("screenshot_page")!.inputSchema.properties as Record<
    string,
    { type?: string; minimum?: number }
  >;
  // The capture options are the route's query parameters, typed as the document types them.
  assert.equal(properties.width.type, "integer");
  assert.equal(properties.width.minimum, 320);
  assert.equal(properties.fullPage.type, "boolean");

  assertToolError(await mcp.call("screenshot_page", { url: "nope" }), "INVALID_URL");
  const range = assertToolError(
    await mcp.call("screenshot_page", { url: "https://example.com/", width: 10 }),
    "INVALID_INPUT",
  );
  assert.equal(range.error, "width must be an integer from 320 to 3840");
  const refused = assertToolError(
    await mcp.call("screenshot_page", { url: "http://169.254.169.254/latest/meta-data/" }),
    "INVALID_URL",
  );
  assert.match(refused.error, /private|reserved/i);
});

chromiumTest(
  "screenshot over MCP: screenshot_page returns the PNG as image content",
  async (_t, chromePath) => {
    const pages = startFixtureServer();
    const browser = testBrowser(chromePath);
    const app = createApp(
      { BROWSER: browser, fetchPolicy: guardedPolicy({}, [pages.origin]) },
      { log: () => {} },
    );
    try {
      await using mcp = await mcpSession(app);
      const url = pages.url("/screenshot/solid.html");
      const result = await mcp.call("screenshot_page", { url, width: 800, height: 600 });
      assert.ok(!result.isError, JSON.stringify(result).slice(0, 300));
      assert.equal(result.content.length, 1);
      const image = result.content[0] as { type: string; data: string; mimeType: string };
      assert.equal(image.type, "image");
      assert.equal(image.mimeType, "image/png");
      const png = Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0));
      const decoded = decodePng(png);
      assert.deepEqual([decoded.width, decoded.height], [800, 600]);
      // The same request over HTTP is the same image (from the capture cache, byte for byte).
      const res = await fetch(
        `${mcp.origin}/screenshot?url=${encodeURIComponent(url)}&width=800&height=600`,
      );
      assert.equal(res.headers.get("x-screenshot-cache"), "HIT");
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), png);
    } finally {
      await browser.close();
      await pages.close();
    }
  },
);
