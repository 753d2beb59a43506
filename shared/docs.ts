/**
 * `GET /docs`: the Scalar API reference over `/openapi.json`. The Scalar bundle is served by
 * the experiment itself (`/docs/scalar.js`, from the npm package), so the page works with no
 * CDN; where the package files are not on disk the route redirects to the same version on a CDN.
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";

const SCALAR_VERSION = "1.72.1";
const CDN_BUNDLE = `https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_VERSION}`;

let bundle: Promise<Uint8Array | null> | undefined;

/** The standalone bundle from the installed package, read once; null when not on disk. */
function readBundle(): Promise<Uint8Array | null> {
  bundle ??= (async () => {
    try {
      const entry = import.meta.resolve("@scalar/api-reference");
      return await Deno.readFile(new URL("./browser/standalone.js", entry));
    } catch {
      return null;
    }
  })();
  return bundle;
}

/** Adds `/docs` and its script to an app. */
// deno-lint-ignore no-explicit-any
export function addDocs(app: Hono<any>, title: string): void {
  app.get(
    "/docs",
    Scalar({ url: "/openapi.json", pageTitle: `${title} API`, cdn: "/docs/scalar.js" }),
  );
  app.get("/docs/scalar.js", async (c) => {
    const js = await readBundle();
    if (!js) return c.redirect(CDN_BUNDLE, 302);
    return c.body(js as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
    });
  });
}
