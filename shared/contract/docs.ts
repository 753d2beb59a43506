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

let bundle: Promise<Uint8Array> | undefined;

/** The standalone bundle of the installed package, read once (a failed read is retried). */
function readBundle(): Promise<Uint8Array> {
  bundle ??= (async () => {
    const entry = import.meta.resolve("@scalar/api-reference");
    return await Deno.readFile(new URL("./browser/standalone.js", entry));
  })().catch((err) => {
    bundle = undefined;
    throw new Error(`Scalar bundle not found in node_modules (run deno install): ${err}`);
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
