/**
 * `GET /docs`: the Scalar API reference over `/openapi.json`, self-contained. The Scalar bundle
 * is served by the experiment itself (`/docs/scalar.js`, from the npm package
 * `@scalar/api-reference`), and the page is configured so that it reaches nothing but its own
 * origin: no web fonts from fonts.scalar.com, no telemetry, no hosted AI agent. It works with
 * no internet access; tests/docs_browser_test.ts checks every request the page makes.
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";

/** Where the page loads the Scalar bundle from (served below). */
export const SCALAR_SCRIPT_PATH = "/docs/scalar.js";

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
    }),
  );
  app.get(SCALAR_SCRIPT_PATH, async (c) => {
    const js = await readBundle();
    return c.body(js as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
    });
  });
}
