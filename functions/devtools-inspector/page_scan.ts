/**
 * The inspector's one pass over an HTML page: htmlparser2's tokenizer with callbacks that keep
 * only what the statistics and the security table read, and no tree. Building a DOM and then
 * querying it with a dozen CSS selectors (each a walk of the whole tree) cost most of
 * `/inspect`'s time and memory on a large page; the events are the same ones the shared
 * parser's tree is built from, so the figures are the same.
 */
import { Parser } from "htmlparser2";
import {
  collapse,
  cooperative,
  DEFAULT_PARSE_LIMITS,
  HtmlLimitError,
  type ParseLimits,
} from "../../shared/net/html.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { runsAsScript } from "./script_kind.ts";

/** A `<meta>` with `http-equiv` or `name`, and `content`. */
export interface MetaTag {
  httpEquiv: string | null;
  name: string | null;
  content: string;
}

/** A `<script src>` that runs (data blocks are never fetched). */
export interface ScriptSource {
  src: string;
  integrity: string | null;
}

/** What the inspector reads of a page; URLs as written (the audit resolves them). */
export interface PageScan {
  /** The doctype's name and identifiers (`html`, or `html PUBLIC "..." "..."`); null when absent. */
  doctype: string | null;
  /** The first `<title>`'s text, white space collapsed; null when absent or empty. */
  title: string | null;
  /** The first `<html>`'s `lang`. */
  lang: string | null;
  elements: number;
  /** Scripts that run (JSON-LD, import maps and other data blocks left out). */
  scripts: number;
  inlineScripts: number;
  /** `<link rel=stylesheet>`. */
  stylesheets: number;
  inlineStyles: number;
  images: number;
  /** Images without an `alt` attribute (alt="" marks a decorative image, which is fine). */
  imagesWithoutAlt: number;
  /** `<a href>` and `<area href>`. */
  links: number;
  forms: number;
  iframes: number;
  /** UTF-8 bytes of the text inside inline scripts that run, and inside `<style>`s. */
  inlineScriptBytes: number;
  inlineStyleBytes: number;
  /** The first `<base href>`'s `href`, or null. */
  baseHref: string | null;
  metas: MetaTag[];
  scriptSources: ScriptSource[];
  /** Other URLs of active content (frames, plugins, stylesheets), as mixed content counts them. */
  active: string[];
  /** URLs of passive content (images, media, `srcset` candidates). */
  passive: string[];
}

/**
 * Elements other than scripts that load active content (blocked when insecure on an HTTPS
 * page), with their URL attribute; stylesheets come after them.
 */
const ACTIVE: readonly [string, string][] = [
  ["iframe", "src"],
  ["frame", "src"],
  ["object", "data"],
  ["embed", "src"],
];

/** Elements that load passive content (images and media), with their URL attribute. */
const PASSIVE: readonly [string, string][] = [
  ["img", "src"],
  ["audio", "src"],
  ["video", "src"],
  ["video", "poster"],
  ["source", "src"],
];

/** Per tag, the [group, attribute] pairs it feeds: groups 0.. are ACTIVE's, then PASSIVE's. */
const SOURCES = new Map<string, [number, string][]>();
[...ACTIVE, ...PASSIVE].forEach(([tag, attribute], group) => {
  SOURCES.set(tag, [...SOURCES.get(tag) ?? [], [group, attribute]]);
});

/** An attribute's value, trimmed; null when absent or empty. */
function attr(attribs: Record<string, string>, name: string): string | null {
  const value = attribs[name]?.trim();
  return value ? value : null;
}

/** URLs of a `srcset` (each candidate's first token). */
function srcsetUrls(srcset: string | null): string[] {
  return (srcset ?? "").split(",").map((c) => c.trim().split(/\s+/)[0]).filter(Boolean);
}

const utf8 = new TextEncoder();

/** What an open element collects text for; a stack of these tracks the nesting. */
type Open = "other" | "title" | "style" | "script";

/** The last node added, as DomHandler tracks it: adjacent texts (or comments) make one node. */
type Last = "none" | "text" | "comment";

/** The parser's callbacks: counts as it goes, refusing a page past the depth or node limit. */
class Scanner {
  readonly open: Open[] = [];
  last: Last = "none";
  nodes = 0;
  /** How many inline scripts and styles are open around the current text. */
  openScripts = 0;
  openStyles = 0;
  titleSeen = false;
  /** The first title's texts while it is open (null otherwise). */
  titleParts: string[] | null = null;
  htmlSeen = false;
  baseSeen = false;
  /** Per group of ACTIVE and PASSIVE, its URLs in document order. */
  sources: string[][] = [...ACTIVE, ...PASSIVE].map(() => []);
  stylesheetHrefs: string[] = [];
  srcsets: string[] = [];
  scan: PageScan = {
    doctype: null,
    title: null,
    lang: null,
    elements: 0,
    scripts: 0,
    inlineScripts: 0,
    stylesheets: 0,
    inlineStyles: 0,
    images: 0,
    imagesWithoutAlt: 0,
    links: 0,
    forms: 0,
    iframes: 0,
    inlineScriptBytes: 0,
    inlineStyleBytes: 0,
    baseHref: null,
    metas: [],
    scriptSources: [],
    active: [],
    passive: [],
  };

  constructor(private readonly limits: ParseLimits) {}

  /** One more node (the shared parser's node limit counts the same nodes). */
  private addNode(last: Last): void {
    if (++this.nodes > this.limits.maxNodes) {
      throw new HtmlLimitError("maxNodes", `Page has more than ${this.limits.maxNodes} nodes`);
    }
    this.last = last;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    this.addNode("none");
    const kind = this.element(name, attribs);
    this.open.push(kind);
    if (this.open.length > this.limits.maxDepth) {
      throw new HtmlLimitError(
        "maxDepth",
        `Page nests elements deeper than ${this.limits.maxDepth} levels`,
      );
    }
    if (kind === "style") this.openStyles++;
    else if (kind === "script") this.openScripts++;
  }

  /** Counts an element and keeps what is read of it; says what its text is collected for. */
  private element(name: string, attribs: Record<string, string>): Open {
    const s = this.scan;
    s.elements++;
    for (const [group, attribute] of SOURCES.get(name) ?? []) {
      const url = attr(attribs, attribute);
      if (url) this.sources[group].push(url);
    }
    switch (name) {
      case "html":
        if (!this.htmlSeen) s.lang = attr(attribs, "lang");
        this.htmlSeen = true;
        return "other";
      case "title":
        if (this.titleSeen) return "other";
        this.titleSeen = true;
        this.titleParts = [];
        return "title";
      case "base":
        if (!this.baseSeen && "href" in attribs) {
          this.baseSeen = true;
          s.baseHref = attr(attribs, "href");
        }
        return "other";
      case "meta": {
        const content = attr(attribs, "content");
        const httpEquiv = attr(attribs, "http-equiv");
        const metaName = attr(attribs, "name");
        if (content !== null && (httpEquiv ?? metaName) !== null) {
          s.metas.push({ httpEquiv, name: metaName, content });
        }
        return "other";
      }
      case "script": {
        if (!runsAsScript(attribs)) return "other";
        s.scripts++;
        const src = attr(attribs, "src");
        if (src === null) {
          s.inlineScripts++;
          return "script";
        }
        s.scriptSources.push({ src, integrity: attr(attribs, "integrity") });
        return "other";
      }
      case "style":
        s.inlineStyles++;
        return "style";
      case "link":
        if ((attr(attribs, "rel") ?? "").toLowerCase().split(/\s+/).includes("stylesheet")) {
          s.stylesheets++;
          const href = attr(attribs, "href");
          if (href) this.stylesheetHrefs.push(href);
        }
        return "other";
      case "img":
        s.images++;
        if (!("alt" in attribs)) s.imagesWithoutAlt++;
        if ("srcset" in attribs) this.srcsets.push(attribs.srcset);
        return "other";
      case "source":
        if ("srcset" in attribs) this.srcsets.push(attribs.srcset);
        return "other";
      case "a":
      case "area":
        if ("href" in attribs) s.links++;
        return "other";
      case "form":
        s.forms++;
        return "other";
      case "iframe":
        s.iframes++;
        return "other";
    }
    return "other";
  }

  onclosetag(): void {
    this.last = "none";
    const kind = this.open.pop();
    if (kind === "style") this.openStyles--;
    else if (kind === "script") this.openScripts--;
    else if (kind === "title") {
      this.scan.title = collapse(this.titleParts!.join("")) || null;
      this.titleParts = null;
    }
  }

  ontext(data: string): void {
    if (this.last !== "text") this.addNode("text");
    // A text counts for every script or style around it, as each one's text content.
    if (this.openScripts + this.openStyles > 0) {
      const bytes = utf8.encode(data).length;
      this.scan.inlineScriptBytes += bytes * this.openScripts;
      this.scan.inlineStyleBytes += bytes * this.openStyles;
    }
    this.titleParts?.push(data);
  }

  oncomment(): void {
    if (this.last !== "comment") this.addNode("comment");
  }

  oncommentend(): void {
    this.last = "none";
  }

  oncdatastart(): void {
    this.addNode("text"); // its text follows as ontext, in the same node
  }

  oncdataend(): void {
    this.last = "none";
  }

  onprocessinginstruction(name: string, data: string): void {
    this.addNode("none");
    // The doctype is the first top-level `<!doctype ...>` declaration.
    if (this.open.length === 0 && this.scan.doctype === null && /^!doctype/i.test(name)) {
      this.scan.doctype = collapse(data.replace(/^!doctype/i, "")) || "html";
    }
  }

  /** The scan, once the parser has ended. */
  result(): PageScan {
    const s = this.scan;
    s.active = [...this.sources.slice(0, ACTIVE.length).flat(), ...this.stylesheetHrefs];
    s.passive = [
      ...this.sources.slice(ACTIVE.length).flat(),
      ...this.srcsets.flatMap(srcsetUrls),
    ];
    return s;
  }
}

/**
 * Scans `html` within the shared parse limits, in slices with pauses between them so other
 * requests are served meanwhile (as `parseHtmlBounded` does); a page over a limit is
 * 502 PARSE_ERROR with the limit's message.
 */
export async function scanPage(
  html: string,
  limits: Partial<ParseLimits> = {},
): Promise<PageScan> {
  const bounds = { ...DEFAULT_PARSE_LIMITS, ...limits };
  const scanner = new Scanner(bounds);
  const parser = new Parser(scanner, { decodeEntities: true, lowerCaseAttributeNames: true });
  const started = performance.now();
  const yieldSoon = cooperative();
  try {
    for (let at = 0; at < html.length;) {
      if (at > 0) await yieldSoon();
      if (performance.now() - started > bounds.maxMillis) {
        throw new HtmlLimitError(
          "maxMillis",
          `Page took longer than ${bounds.maxMillis} ms to parse`,
        );
      }
      // A slice never ends between the two halves of a surrogate pair (text bytes count both).
      let end = Math.min(at + bounds.sliceChars, html.length);
      if (end < html.length && /[\ud800-\udbff]/.test(html[end - 1])) end++;
      parser.write(html.slice(at, end));
      at = end;
    }
    parser.end();
  } catch (err) {
    if (err instanceof HtmlLimitError) throw new ApiError("PARSE_ERROR", err.message);
    throw err;
  }
  return scanner.result();
}
