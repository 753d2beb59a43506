/**
 * `deno task demo`: the services and a few example pages on this machine, and curl lines that
 * work with no internet. The pages are the test fixtures (a WordPress page, a blog post, an
 * article, a styled page), served on 127.0.0.1:DEMO_PAGES_PORT; the services run under the dev
 * runner with `ALLOW_PRIVATE_NETWORKS=true` so that they may fetch them, and therefore on
 * loopback only (the services refuse that pair on any other HOST).
 */
import { EXPERIMENTS } from "./experiments.ts";

/** Where the example pages are served. */
export const DEMO_PAGES_PORT = 8000;
/** The pages: URL path → file under tests/fixtures/. */
const PAGES: Record<string, string> = {
  "/wordpress.html": "pages/wordpress.html",
  "/blog.html": "pages/blog.html",
  "/article.html": "articles/solar_sails.html",
  "/styled.html": "screenshot/styled.html",
  "/styled.css": "screenshot/styled.css",
  "/styled.js": "screenshot/styled.js",
};
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};
/** How long the services get to come up before the curl lines are printed anyway. */
const UP_TIMEOUT_MS = 60_000;

const ROOT = new URL("../", import.meta.url);

/** Serves the example pages on loopback. */
function servePages(port: number): Deno.HttpServer {
  return Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const file = PAGES[path === "/" ? "/blog.html" : path];
    if (!file) return new Response("Not found", { status: 404 });
    const body = await Deno.readFile(new URL(`tests/fixtures/${file}`, ROOT));
    return new Response(body, {
      headers: { "content-type": TYPES[file.split(".").pop()!] ?? "application/octet-stream" },
    });
  });
}

/** The curl lines, for pages on `pages` (`http://127.0.0.1:8000`). */
export function demoLines(pages: string): string[] {
  const port = (slug: string) => EXPERIMENTS.find((e) => e.slug === slug)!.port;
  const at = (slug: string) => `http://127.0.0.1:${port(slug)}`;
  return [
    `curl '${at("dependency-analyzer")}/analyze?url=${pages}/wordpress.html'`,
    `curl '${at("metadata-extractor")}/metadata?url=${pages}/blog.html'`,
    `curl '${at("devtools-inspector")}/inspect?url=${pages}/blog.html'`,
    `curl -i '${at("ai-summary")}/summary?url=${pages}/article.html'   # offline extractive model`,
    `curl -o page.png '${at("screenshot")}/screenshot?url=${pages}/styled.html'`,
    `curl -X POST ${
      at("link-shortener")
    }/shorten -H 'content-type: application/json' -d '{"url":"${pages}/blog.html"}'`,
    `curl -i ${at("link-shortener")}/<code from the line above>`,
    `curl -X PUT --data-binary 'hello' -H 'content-type: text/plain' '${
      at("object-storage")
    }/object?key=hello.txt&public=true'`,
    `curl ${at("object-storage")}/public/hello.txt`,
    `# repo-explainer needs the GitHub API (internet): curl '${
      at("repo-explainer")
    }/explain?url=https://github.com/denoland/deno'`,
  ];
}

/** Whether every port answers `GET /`. */
async function allUp(): Promise<boolean> {
  for (const { port } of EXPERIMENTS) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      if (res.status !== 200) return false;
    } catch {
      return false;
    }
  }
  return true;
}

async function main(): Promise<void> {
  const pagesPort = Number(Deno.env.get("DEMO_PAGES_PORT") ?? DEMO_PAGES_PORT);
  const pages = servePages(pagesPort);
  const runner = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/dev.ts"],
    cwd: ROOT,
    env: { ALLOW_PRIVATE_NETWORKS: "true", HOST: "127.0.0.1" },
    stdin: "null",
  }).spawn();
  // The runner stops every service and browser on SIGTERM; pass the signal on and wait.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      try {
        runner.kill("SIGTERM");
      } catch {
        // already gone
      }
    });
  }
  const end = Date.now() + UP_TIMEOUT_MS;
  while (Date.now() < end && !(await allUp())) await new Promise((r) => setTimeout(r, 500));
  const origin = `http://127.0.0.1:${pagesPort}`;
  console.log(`\nDemo: example pages on ${origin}/ (${Object.keys(PAGES).join(" ")})`);
  console.log("Try, with no internet:\n");
  for (const line of demoLines(origin)) console.log(`  ${line}`);
  console.log("\nCtrl-C stops everything.\n");
  const status = await runner.status;
  await pages.shutdown();
  Deno.exit(status.code);
}

if (import.meta.main) await main();
