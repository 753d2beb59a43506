/**
 * `/screenshot` without a browser: input validation (400 INVALID_URL / INVALID_INPUT before
 * anything is launched), the OpenAPI description, a browser that cannot be had (502 naming
 * the variables to set, never a 500), and the environment read at start-up.
 */
import assert from "node:assert/strict";
import { createApp, ROOT } from "../../functions/screenshot/app.ts";
import {
  DEFAULT_LIMITS,
  DEFAULT_WARM_PAGES,
  limitsFromEnv,
} from "../../functions/screenshot/limits.ts";
import { type BrowserBinding, createBrowser } from "../../shared/bindings/browser/mod.ts";
import { ConfigError, Env } from "../../shared/contract/config.ts";
import { openPolicy } from "../support/policy.ts";
import { assertConfigError } from "../support/entrypoint.ts";

/** A binding that fails the test if anything asks it for a browser. */
const untouchable: BrowserBinding = {
  mode: "launch",
  get: () => Promise.reject(new Error("the browser must not be used")),
  close: () => Promise.resolve(),
};

const quiet = { log: () => {} };
const app = createApp({ BROWSER: untouchable, fetchPolicy: openPolicy() }, quiet);
const PAGE = encodeURIComponent("https://example.com/");

Deno.test("missing or malformed url is 400 INVALID_URL", async () => {
  for (
    const query of ["", "?url=", "?url=notaurl", "?url=ftp%3A%2F%2Fexample.com%2F", "?width=800"]
  ) {
    const res = await app.request(`/screenshot${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(await res.json(), { error: "Missing or invalid url", code: "INVALID_URL" });
  }
});

Deno.test("out-of-range capture parameters are 400 INVALID_INPUT naming the range", async () => {
  const cases: [string, string][] = [
    ["width=319", "width must be an integer from 320 to 3840"],
    ["width=3841", "width must be an integer from 320 to 3840"],
    ["width=800.5", "width must be an integer from 320 to 3840"],
    ["width=wide", "width must be an integer from 320 to 3840"],
    ["width=", "width must be an integer from 320 to 3840"],
    ["width=1e3", "width must be an integer from 320 to 3840"],
    ["width=0x400", "width must be an integer from 320 to 3840"],
    ["height=199", "height must be an integer from 200 to 2160"],
    ["height=2161", "height must be an integer from 200 to 2160"],
    ["fullPage=yes", "fullPage must be true or false"],
    ["deviceScaleFactor=0.5", "deviceScaleFactor must be a number from 1 to 3"],
    ["deviceScaleFactor=4", "deviceScaleFactor must be a number from 1 to 3"],
    ["deviceScaleFactor=NaN", "deviceScaleFactor must be a number from 1 to 3"],
    ["deviceScaleFactor=2.", "deviceScaleFactor must be a number from 1 to 3"],
  ];
  for (const [param, error] of cases) {
    const res = await app.request(`/screenshot?url=${PAGE}&${param}`);
    assert.equal(res.status, 400, param);
    assert.deepEqual(await res.json(), { error, code: "INVALID_INPUT" }, param);
  }
});

Deno.test("an invalid url wins over an invalid parameter", async () => {
  const res = await app.request("/screenshot?url=nope&width=1");
  assert.equal((await res.json()).code, "INVALID_URL");
});

Deno.test("the root document and /openapi.json describe the route", async () => {
  const root = await app.request("/");
  assert.deepEqual(await root.json(), ROOT);
  const doc = await (await app.request("/openapi.json")).json();
  const op = doc.paths["/screenshot"].get;
  const ok = op.responses["200"];
  assert.deepEqual(ok.content["image/png"].schema, { type: "string", format: "binary" });
  assert.ok(ok.headers["Cache-Control"]);
  assert.ok(ok.headers["ETag"]);
  assert.deepEqual(ok.headers["X-Screenshot-Cache"].schema.enum, ["HIT", "MISS"]);
  for (const type of ["image/jpeg", "image/webp"]) assert.ok(ok.content[type], type);
  assert.deepEqual(Object.keys(op.responses).sort(), ["200", "304", "400", "502"]);
  const params = Object.fromEntries(op.parameters.map((p: { name: string }) => [p.name, p]));
  assert.deepEqual(Object.keys(params).sort(), [
    "blockAds",
    "colorScheme",
    "device",
    "deviceScaleFactor",
    "format",
    "fullPage",
    "height",
    "hideCookieBanners",
    "landscape",
    "omitBackground",
    "paper",
    "quality",
    "reducedMotion",
    "selector",
    "url",
    "waitFor",
    "width",
  ]);
  assert.deepEqual(params.format.schema.enum, ["png", "jpeg", "webp", "pdf"]);
  assert.ok(ok.content["application/pdf"]);
  assert.ok(params.device.schema.enum.includes("iPhone 15 Pro"));
  assert.equal(params.paper.schema.enum[0], "a4");
  assert.equal(params.blockAds.schema.type, "boolean");
  assert.equal(params.quality.schema.maximum, 100);
  assert.equal(params.url.required, true);
  assert.equal(params.width.required, false);
  assert.equal(params.width.schema.minimum, 320);
  assert.equal(params.width.schema.maximum, 3840);
});

Deno.test("no browser to launch is a 502 naming CHROME_PATH and BROWSER_WS_ENDPOINT", async () => {
  const browser = createBrowser({ executablePath: "/nonexistent/chromium" });
  const logged: string[] = [];
  const log = (line: string) => logged.push(line);
  const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log });
  try {
    const res = await app.request(`/screenshot?url=${PAGE}`);
    assert.equal(res.status, 502);
    const body = await res.json();
    assert.equal(body.code, "SCREENSHOT_ERROR");
    assert.match(body.error, /CHROME_PATH/);
    assert.match(body.error, /BROWSER_WS_ENDPOINT/);
    assert.doesNotMatch(body.error, /nonexistent/, "no local path in the response");
    // The failure is logged as a JSON line of the request (its id, the launch's message).
    const failure = logged.map((l) => JSON.parse(l)).find((l) =>
      l.event === "browser_start_failed"
    );
    assert.match(failure?.message ?? "", /Launching Chromium failed/);
    assert.equal(typeof failure?.requestId, "string");
  } finally {
    await browser.close();
  }
});

Deno.test("limits come from the environment, and a malformed one is a ConfigError", () => {
  // From the environment one page is kept warm; an app built without limits keeps none.
  assert.deepEqual(limitsFromEnv(new Env({})), {
    ...DEFAULT_LIMITS,
    warmPages: DEFAULT_WARM_PAGES,
  });
  const limits = limitsFromEnv(
    new Env({ MAX_CONCURRENT_PAGES: "8", NAVIGATION_TIMEOUT_MS: "5000", MAX_QUEUED_PAGES: "0" }),
  );
  assert.equal(limits.maxConcurrentPages, 8);
  assert.equal(limits.navigationTimeoutMs, 5000);
  assert.equal(limits.maxQueuedPages, 0);
  for (
    const [name, value] of [["MAX_CONCURRENT_PAGES", "many"], ["MAX_CONCURRENT_PAGES", "0"], [
      "NAVIGATION_TIMEOUT_MS",
      "10",
    ], ["PAGE_QUEUE_TIMEOUT_MS", "-1"]]
  ) {
    assert.throws(() => limitsFromEnv(new Env({ [name]: value })), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, new RegExp(`^${name} `));
      return true;
    });
  }
});

Deno.test("main.ts stops with one line for a bad MAX_CONCURRENT_PAGES or BROWSER_WS_ENDPOINT", async () => {
  for (
    const [name, value] of [["MAX_CONCURRENT_PAGES", "lots"], [
      "BROWSER_WS_ENDPOINT",
      "http://127.0.0.1:9222",
    ]]
  ) {
    await assertConfigError("screenshot", { [name]: value }, `${name} `);
  }
});

Deno.test("in-range parameters pass validation (and reach the browser)", async () => {
  let asked = 0;
  const browser: BrowserBinding = {
    mode: "launch",
    get: () => {
      asked++;
      return Promise.reject(new Error("no browser in this test"));
    },
    close: () => Promise.resolve(),
  };
  const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, quiet);
  const params = "width=320&height=2160&fullPage=false&deviceScaleFactor=1.5";
  const res = await app.request(`/screenshot?url=${PAGE}&${params}`);
  assert.equal(res.status, 502);
  assert.equal((await res.json()).code, "SCREENSHOT_ERROR");
  assert.equal(asked, 1);
});
