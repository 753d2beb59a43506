/**
 * `GET /docs`: the Scalar API reference over `/openapi.json`, self-contained. The Scalar bundle
 * is served by the experiment itself (`/docs/scalar.js`, from the npm package
 * `@scalar/api-reference`), and the page is configured so that it reaches nothing but its own
 * origin: no web fonts from fonts.scalar.com, no telemetry, no hosted AI agent, no MCP
 * generator and no developer tools (their Share and Deploy upload the document to Scalar's
 * cloud; they show on localhost by default). It works with no internet access;
 * tests/docs_browser_test.ts checks every request the page makes, after clicking around too.
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";

/** Where the page loads the Scalar bundle from (served below). */
export const SCALAR_SCRIPT_PATH = "/docs/scalar.js";
/** The page's icon (served below), so the browser asks this origin and nothing else. */
export const FAVICON_PATH = "/docs/favicon.svg";

/** A small icon: a bolt on a rounded square (edge functions). */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect width="32" height="32" rx="7" fill="#1f6feb"/>` +
  `<path d="M18 4 8 18h7l-2 10 11-15h-7z" fill="#fff"/></svg>`;

/**
 * File name of the Scalar script beside a built bundle (`deno task build` writes
 * `dist/scalar.js` next to `dist/<slug>.js`, where there is no node_modules to read it from).
 */
export const SCALAR_ASSET = "scalar.js";

let bundle: Promise<Uint8Array> | undefined;

/**
 * The standalone bundle of the installed package, read once (a failed read is retried); in a
 * built bundle (no node_modules, no import map) the copy beside the bundle.
 */
function readBundle(): Promise<Uint8Array> {
  bundle ??= (async () => {
    let entry: string;
    try {
      entry = import.meta.resolve("@scalar/api-reference");
    } catch {
      // A bundle run with no deno.json: this code is in dist/<slug>.js or in one of its chunks
      // in dist/<slug>/, and the script is dist/scalar.js.
      return await Deno.readFile(new URL(`./${SCALAR_ASSET}`, import.meta.url))
        .catch(() => Deno.readFile(new URL(`../${SCALAR_ASSET}`, import.meta.url)));
    }
    return await Deno.readFile(new URL("./browser/standalone.js", entry));
  })().catch((err) => {
    bundle = undefined;
    throw new Error(`Scalar bundle not found (run deno install, or deno task build): ${err}`);
  });
  return bundle;
}

/** Adds `/docs` and its script to an app. */
// deno-lint-ignore no-explicit-any
export function addDocs(app: Hono<any>, title: string): void {
  app.get(
    "/docs",
    Scalar({
      url: "/openapi.json",
      pageTitle: `${title} API`,
      cdn: SCALAR_SCRIPT_PATH,
      // Everything the page needs comes from this origin: system fonts, no third parties.
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      favicon: FAVICON_PATH,
    }),
  );
  app.get(FAVICON_PATH, (c) =>
    c.body(FAVICON_SVG, 200, {
      "content-type": "image/svg+xml",
      "cache-control": "public, max-age=86400",
    }));
  app.get(SCALAR_SCRIPT_PATH, async (c) => {
    const js = await readBundle();
    return c.body(js as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
    });
  });
}
