/**
 * `GET /docs`: Swagger UI over `/openapi.json`, self-contained. Its script and stylesheet are
 * served by the experiment itself (`/docs/swagger-ui-bundle.js`, `/docs/swagger-ui.css`, from
 * the npm package `swagger-ui-dist`, which has no dependencies of its own: a 12 MB install, where
 * the Scalar reference used before brought ~150 MB of packages and icon sets), and the page is
 * configured so that it reaches nothing but its own origin: no validator badge (Swagger UI
 * sends the document to validator.swagger.io for it by default), no web fonts. It works with no
 * internet access; tests/docs_browser_test.ts checks every request the page makes, after
 * trying a route too.
 */
import type { Hono } from "hono";

/** The files of `swagger-ui-dist` the page loads, served under `/docs/` (and beside a bundle). */
export const DOCS_ASSETS = ["swagger-ui-bundle.js", "swagger-ui.css"] as const;
/** The page's icon (served below), so the browser asks this origin and nothing else. */
export const FAVICON_PATH = "/docs/favicon.svg";

/** A small icon: a bolt on a rounded square (edge functions). */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect width="32" height="32" rx="7" fill="#1f6feb"/>` +
  `<path d="M18 4 8 18h7l-2 10 11-15h-7z" fill="#fff"/></svg>`;

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

const assets = new Map<string, Promise<Uint8Array>>();

/**
 * One file of the installed `swagger-ui-dist`, read once (a failed read is retried); in a built
 * bundle (no node_modules, no import map) the copy that `deno task build` put beside it.
 */
function readAsset(name: string): Promise<Uint8Array> {
  let file = assets.get(name);
  if (!file) {
    file = (async () => {
      let entry: string;
      try {
        entry = import.meta.resolve("swagger-ui-dist");
      } catch {
        // A bundle run with no deno.json: this code is in dist/<slug>.js or in one of its chunks
        // in dist/<slug>/, and the file is in dist/.
        return await Deno.readFile(new URL(`./${name}`, import.meta.url))
          .catch(() => Deno.readFile(new URL(`../${name}`, import.meta.url)));
      }
      return await Deno.readFile(new URL(`./${name}`, entry));
    })().catch((err) => {
      assets.delete(name);
      throw new Error(`${name} not found (run deno install, or deno task build): ${err}`);
    });
    assets.set(name, file);
  }
  return file;
}

/** Escapes text for an HTML text node or a double-quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page: Swagger UI on `/openapi.json`, every URL on this origin. */
export function docsPage(title: string): string {
  const config = {
    url: "/openapi.json",
    dom_id: "#docs",
    deepLinking: true,
    // null: no badge, so the document is never sent to validator.swagger.io.
    validatorUrl: null,
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} API</title>
<link rel="icon" href="${FAVICON_PATH}">
<link rel="stylesheet" href="/docs/${DOCS_ASSETS[1]}">
</head>
<body>
<div id="docs"></div>
<script src="/docs/${DOCS_ASSETS[0]}"></script>
<script>SwaggerUIBundle(${JSON.stringify(config)});</script>
</body>
</html>
`;
}

/** Adds `/docs` and its files to an app. */
// deno-lint-ignore no-explicit-any
export function addDocs(app: Hono<any>, title: string): void {
  const page = docsPage(title);
  app.get("/docs", (c) => c.html(page));
  app.get(FAVICON_PATH, (c) =>
    c.body(FAVICON_SVG, 200, {
      "content-type": "image/svg+xml",
      "cache-control": "public, max-age=86400",
    }));
  for (const name of DOCS_ASSETS) {
    app.get(`/docs/${name}`, async (c) => {
      const bytes = await readAsset(name);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "content-type": TYPES[name.split(".").pop()!],
        "cache-control": "public, max-age=86400",
      });
    });
  }
}
