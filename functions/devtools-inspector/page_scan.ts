/**
 * The inspector's one pass over an HTML page: htmlparser2's tokenizer with callbacks that keep
 * only what the statistics and the security table read, and no tree. Building a DOM and then
 * querying it with a dozen CSS selectors (each a walk of the whole tree) cost most of
 * `/inspect`'s time and memory on a large page; the events are the same ones the shared
 * parser's tree is built from, so the figures are the same.
 */
import {
  attribute,
  collapse,
  type ParseLimits,
  type StreamHandler,
  streamPage,
} from "../../shared/net/html.ts";
import type { ParseInterest } from "../../shared/net/lean_parser.ts";
import { runsAsScript } from "./script_kind.ts";
import { utf8Length } from "../../shared/net/utf8_length.ts";

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
  /** `<link rel=stylesheet href>`s with their `integrity`, in document order. */
  stylesheetSources: ScriptSource[];
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

/** Most elements load nothing: one shared empty list, not one per element. */
const NO_SOURCES: readonly [number, string][] = [];

/** URLs of a `srcset` (each candidate's first token). */
function srcsetUrls(srcset: string | null): string[] {
  return (srcset ?? "").split(",").map((c) => c.trim().split(/\s+/)[0]).filter(Boolean);
}

/**
 * What the scanner reads of a page (lean_parser.ts `ParseInterest`): the attributes of the
 * elements `element` looks at, the text in scripts, styles and titles. Every other element
 * opens without its attributes: it only counts.
 */
const INTEREST: ParseInterest = {
  attributesOf: new Set([
    ...SOURCES.keys(),
    ...["html", "base", "meta", "script", "link", "img", "source", "a", "area"],
  ]),
  attributesWith: new Map(),
  textOf: new Set(["script", "style", "title"]),
};

/** What an open element collects text for; a stack of these tracks the nesting. */
type Open = "other" | "title" | "style" | "script";

/** The parser's callbacks: counts as it goes (the shared stream enforces the parse limits). */
class Scanner implements StreamHandler {
  readonly interest = INTEREST;
  readonly open: Open[] = [];
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
  /** URLs of `srcset` candidates, split as the parse goes (it pauses between slices). */
  srcsetUrls: string[] = [];
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
    stylesheetSources: [],
    active: [],
    passive: [],
  };

  onopentag(name: string, attribs: Record<string, string>): void {
    const kind = this.element(name, attribs);
    this.open.push(kind);
    if (kind === "style") this.openStyles++;
    else if (kind === "script") this.openScripts++;
  }

  /** Counts an element and keeps what is read of it; says what its text is collected for. */
  private element(name: string, attribs: Record<string, string>): Open {
    const s = this.scan;
    s.elements++;
    for (const [group, urlAttribute] of SOURCES.get(name) ?? NO_SOURCES) {
      const url = attribute(attribs, urlAttribute);
      if (url) this.sources[group].push(url);
    }
    switch (name) {
      case "html":
        if (!this.htmlSeen) s.lang = attribute(attribs, "lang");
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
          s.baseHref = attribute(attribs, "href");
        }
        return "other";
      case "meta": {
        const content = attribute(attribs, "content");
        const httpEquiv = attribute(attribs, "http-equiv");
        const metaName = attribute(attribs, "name");
        if (content !== null && (httpEquiv ?? metaName) !== null) {
          s.metas.push({ httpEquiv, name: metaName, content });
        }
        return "other";
      }
      case "script": {
        if (!runsAsScript(attribs)) return "other";
        s.scripts++;
        const src = attribute(attribs, "src");
        if (src === null) {
          s.inlineScripts++;
          return "script";
        }
        s.scriptSources.push({ src, integrity: attribute(attribs, "integrity") });
        return "other";
      }
      case "style":
        s.inlineStyles++;
        return "style";
      case "link":
        if ((attribute(attribs, "rel") ?? "").toLowerCase().split(/\s+/).includes("stylesheet")) {
          s.stylesheets++;
          const href = attribute(attribs, "href");
          if (href) {
            this.stylesheetHrefs.push(href);
            s.stylesheetSources.push({ src: href, integrity: attribute(attribs, "integrity") });
          }
        }
        return "other";
      case "img":
        s.images++;
        if (!("alt" in attribs)) s.imagesWithoutAlt++;
        if ("srcset" in attribs) this.addSrcset(attribs.srcset);
        return "other";
      case "source":
        if ("srcset" in attribs) this.addSrcset(attribs.srcset);
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

  /** Keeps a `srcset`'s URLs (a loop, not a spread: one attribute may hold millions). */
  private addSrcset(srcset: string): void {
    for (const url of srcsetUrls(srcset)) this.srcsetUrls.push(url);
  }

  onclosetag(): void {
    const kind = this.open.pop();
    if (kind === "style") this.openStyles--;
    else if (kind === "script") this.openScripts--;
    else if (kind === "title") {
      this.scan.title = collapse(this.titleParts!.join("")) || null;
      this.titleParts = null;
    }
  }

  ontext(data: string): void {
    // A text counts for every script or style around it, as each one's text content.
    if (this.openScripts + this.openStyles > 0) {
      const bytes = utf8Length(data);
      this.scan.inlineScriptBytes += bytes * this.openScripts;
      this.scan.inlineStyleBytes += bytes * this.openStyles;
    }
    this.titleParts?.push(data);
  }

  onprocessinginstruction(name: string, data: string): void {
    // The doctype is the first top-level `<!doctype ...>` declaration.
    if (this.open.length === 0 && this.scan.doctype === null && /^!doctype/i.test(name)) {
      this.scan.doctype = collapse(data.replace(/^!doctype/i, "")) || "html";
    }
  }

  /** The scan, once the parser has ended. */
  result(): PageScan {
    const s = this.scan;
    s.active = [...this.sources.slice(0, ACTIVE.length).flat(), ...this.stylesheetHrefs];
    s.passive = [...this.sources.slice(ACTIVE.length).flat(), ...this.srcsetUrls];
    return s;
  }
}

/**
 * Scans `html` within the shared parse limits (`streamPage`: in slices with pauses between
 * them so other requests are served meanwhile); a page over a limit is 502 PARSE_ERROR with
 * the limit's message.
 */
export async function scanPage(
  html: string,
  limits: Partial<ParseLimits> = {},
): Promise<PageScan> {
  const scanner = new Scanner();
  await streamPage(html, scanner, "PARSE_ERROR", limits);
  return scanner.result();
}
