/**
 * Ad, tracker and cookie-banner blocking for a capture, from the filter engines that
 * `scripts/build_blocklists.ts` serialised into `blocklists/` (no list is fetched at run time):
 * requests a list blocks are aborted before they leave the browser, and elements its cosmetic
 * rules name are hidden by a stylesheet added over CDP (not page script: the page's CSP and its
 * own scripts cannot refuse or remove it). Works alike with a launched and a remote browser.
 */
import { Buffer } from "node:buffer";
import { FiltersEngine, Request } from "@ghostery/adblocker";
import type { HTTPRequest, Page } from "puppeteer-core";

/** The engines: `ads` for `blockAds`, `cookies` for `hideCookieBanners`. */
export type BlocklistName = "ads" | "cookies";

/** What the build wrote: where the lists came from, and the gzipped engine in base64. */
interface BlocklistFile {
  built: string;
  lists: unknown[];
  engine: string;
}

const loaded = new Map<BlocklistName, Promise<FiltersEngine>>();

/** Reads (once per process) and deserialises an engine. */
export function loadBlocklist(name: BlocklistName): Promise<FiltersEngine> {
  let engine = loaded.get(name);
  if (!engine) {
    engine = readBlocklist(name);
    loaded.set(name, engine);
    engine.catch(() => loaded.delete(name));
  }
  return engine;
}

async function readBlocklist(name: BlocklistName): Promise<FiltersEngine> {
  // Literal specifiers, so a bundle carries both files (and loads each on first use only).
  const file: BlocklistFile = name === "ads"
    ? (await import("./blocklists/ads.json", { with: { type: "json" } })).default
    : (await import("./blocklists/cookies.json", { with: { type: "json" } })).default;
  // Buffer's native base64 decoder: atob plus a copy takes seconds on the 7 MB string.
  const gzipped = Buffer.from(file.engine, "base64");
  const bytes = new Uint8Array(
    await new Response(new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip")))
      .arrayBuffer(),
  );
  return FiltersEngine.deserialize(bytes);
}

/**
 * Aborts every request of the page that one of `engines` blocks (the page's own document
 * never). Call before the navigation.
 */
export async function blockRequests(page: Page, engines: FiltersEngine[]): Promise<void> {
  await page.setRequestInterception(true);
  page.on("request", (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const blocked = !isMainDocument(page, request) &&
      engines.some((engine) =>
        engine.match(Request.fromRawDetails({
          url: request.url(),
          sourceUrl: request.frame()?.url() || page.url(),
          type: request.resourceType(),
        })).match
      );
    (blocked ? request.abort("blockedbyclient") : request.continue()).catch(() => {});
  });
}

function isMainDocument(page: Page, request: HTTPRequest): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame();
}

/** At most this many class names, ids and links are read from the page for generic rules. */
const MAX_DOM_TOKENS = 5_000;

/**
 * Hides what the engines' cosmetic rules name on this page: the rules for its host, the
 * generic ones, and those keyed by the classes, ids and links present now. A stylesheet
 * applies to elements added later too.
 */
export async function hideElements(page: Page, engines: FiltersEngine[]): Promise<void> {
  const url = page.url();
  if (!/^https?:/.test(url)) return;
  // The engine's own parse of the address (its public-suffix list gives the domain).
  const { hostname, domain } = Request.fromRawDetails({ url });
  const dom = await page.evaluate((max: number) => {
    const classes = new Set<string>();
    const ids = new Set<string>();
    const hrefs = new Set<string>();
    for (const el of document.querySelectorAll("[class],[id],a[href]")) {
      if (classes.size + ids.size + hrefs.size >= max) break;
      for (const c of el.classList) classes.add(c);
      if (el.id) ids.add(el.id);
      const href = el.getAttribute("href");
      if (el.tagName === "A" && href) hrefs.add(href);
    }
    return { classes: [...classes], ids: [...ids], hrefs: [...hrefs] };
  }, MAX_DOM_TOKENS).catch(() => ({ classes: [], ids: [], hrefs: [] }));
  const styles = engines.map((engine) =>
    engine.getCosmeticsFilters({
      url,
      hostname: hostname ?? "",
      domain: domain ?? "",
      ...dom,
      getBaseRules: true,
      getRulesFromHostname: true,
      getRulesFromDOM: true,
      // Scriptlets and extended selectors would run page code: hiding only.
      getInjectionRules: false,
      getExtendedRules: false,
    }).styles
  ).join("\n");
  if (styles.trim()) await addStyleSheet(page, styles);
}

/** Adds `css` to the main frame's document as an inspector stylesheet (CSP does not apply). */
async function addStyleSheet(page: Page, css: string): Promise<void> {
  const session = await page.createCDPSession();
  try {
    const { frameTree } = await session.send("Page.getFrameTree");
    await session.send("DOM.enable");
    await session.send("CSS.enable");
    const { styleSheetId } = await session.send("CSS.createStyleSheet", {
      frameId: frameTree.frame.id,
    });
    await session.send("CSS.setStyleSheetText", { styleSheetId, text: css });
  } finally {
    await session.detach().catch(() => {});
  }
}
