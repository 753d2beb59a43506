/**
 * Fallbacks read from the page's body markup, after every declared source (meta tags, JSON-LD,
 * microdata): bylines, date stamps, site logos, the article's lead image and first paragraph.
 * The selectors are data, in the order tried (after metascraper's rule bundles, which users
 * compare against); each guard says what a real page puts there that is not the value.
 */
import { isTag } from "domhandler";
import { compile, selectAll } from "css-select";
import { parse as parseSelector } from "css-what";
import { cooperative, type YieldSoon } from "../../shared/contract/cooperative.ts";
import { type AnyNode, attr, type Document, type Element, text } from "../../shared/net/html.ts";
import { selectorKey } from "../../shared/net/selector_key.ts";
import { cleanAuthor } from "./authors.ts";

/** A selector compiled once per process, with what its matches must have (`key`). */
interface Query {
  match: ReturnType<typeof compile<AnyNode, Element>>;
  key: string | null;
}

/** Compiled selectors by text: compiling is most of a query's cost (~0.1 ms each). */
const compiled = new Map<string, Query>();

/**
 * A document's elements in document order, and those having a tag name or an attribute (by
 * `selectorKey`), listed on first use and shared by every rule: a rule then tests only the
 * elements that can match it (a news page's 1,246 elements hold 51 `<img>` and 68 ids). Each
 * rule walking the whole tree again cost more than matching, and a fresh instance runs every
 * test as cold code: the rules were a fifth of its first answer on a 279 KiB news page.
 */
const elementLists = new WeakMap<Document, Map<string | null, Element[]>>();

/** Elements walked or tested between two checks of the cooperative yield. */
const CHECK_EVERY = 256;

/**
 * Work that may pause: a generator that yields when the request's cooperative yield is due.
 * `run` drives it without a promise while no pause is due (a small page: the body rules cost
 * no microtask), and from the first pause on awaits the yield between steps.
 */
type Steps<T> = Generator<"pause", T, void>;

function run<T>(steps: Steps<T>, yieldSoon: YieldSoon): T | Promise<T> {
  let step = steps.next();
  if (step.done) return step.value;
  return (async () => {
    while (!step.done) {
      await yieldSoon();
      step = steps.next();
    }
    return step.value;
  })();
}

function* elementsOf(
  doc: Document,
  key: string | null,
  yieldSoon: YieldSoon,
): Steps<Element[]> {
  let lists = elementLists.get(doc);
  if (!lists) elementLists.set(doc, lists = new Map());
  let list = lists.get(key);
  if (list) return list;
  list = [];
  if (key !== null) {
    const all = yield* elementsOf(doc, null, yieldSoon);
    const name = key.slice(1);
    const byTag = key[0] === "<";
    for (let i = 0; i < all.length; i++) {
      if (i % CHECK_EVERY === 0 && yieldSoon.due()) yield "pause";
      const el = all[i];
      if (byTag ? el.name === name : el.attribs[name] !== undefined) list.push(el);
    }
  } else {
    const stack: AnyNode[] = [...doc.children].reverse();
    while (stack.length > 0) {
      if (list.length % CHECK_EVERY === 0 && yieldSoon.due()) yield "pause";
      const node = stack.pop()!;
      if (!isTag(node)) continue;
      list.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  lists.set(key, list);
  return list;
}

/** A selector compiled once per process. */
function queryOf(selector: string): Query {
  let query = compiled.get(selector);
  if (!query) {
    // Parsed once: the key is read before css-select compiles (and reorders) the tokens.
    const parsed = parseSelector(selector);
    const key = selectorKey(parsed);
    query = { match: compile<AnyNode, Element>(parsed), key };
    compiled.set(selector, query);
  }
  return query;
}

/**
 * The elements of `doc` matching `selector`, in document order, at most `limit`; the scan
 * pauses for other requests when `yieldSoon` is due (a page may hold 300,000 elements).
 */
function* select(
  doc: Document,
  selector: string,
  yieldSoon: YieldSoon,
  limit = Infinity,
): Steps<Element[]> {
  const query = queryOf(selector);
  const found: Element[] = [];
  const list = yield* elementsOf(doc, query.key, yieldSoon);
  for (let i = 0; i < list.length; i++) {
    if (i % CHECK_EVERY === CHECK_EVERY - 1 && yieldSoon.due()) yield "pause";
    if (!query.match(list[i])) continue;
    if (found.push(list[i]) >= limit) break;
  }
  return found;
}

/** The elements under `root` (an element) matching `selector`, in document order. */
function selectUnder(root: Element, selector: string): Element[] {
  return selectAll(queryOf(selector).match, root) as Element[];
}

/**
 * Matching elements a rule reads at most: a page's date or byline is among its first few, and
 * a hostile page of 58,000 `<time>` elements that are not dates made the date rules run chrono
 * on every one (2.4 s).
 */
const MAX_CANDIDATES = 20;

/** The first matching element's value that `accept` keeps, among the first few matches. */
function* firstValue(
  doc: Document,
  selector: string,
  read: (el: Element) => string | null,
  accept: (value: string) => boolean,
  yieldSoon: YieldSoon,
): Steps<string | null> {
  const candidates = yield* select(doc, selector, yieldSoon, MAX_CANDIDATES);
  for (let i = 0; i < candidates.length; i++) {
    const value = read(candidates[i]);
    if (value && accept(value)) return value;
  }
  return null;
}

const textOf = (el: Element) => text(el) || null;

/**
 * Where a name is never read from: a page's top headings are its headline and section titles
 * ("Related stories"), and its navigation holds menu labels ("For Authors"), not bylines or
 * the site's name.
 */
const NOT_A_NAME = new Set(["h1", "h2", "nav"]);

/** An element's text as a name, unless it is in a top heading or the navigation. */
const nameText = (el: Element) => (inHeadingOrNav(el) ? null : textOf(el));

function inHeadingOrNav(el: Element): boolean {
  for (let p: AnyNode | null = el; p; p = p.parent) {
    if (isTag(p) && (NOT_A_NAME.has(p.name) || p.attribs.role === "navigation")) return true;
  }
  return false;
}

/**
 * Two words at least once the byline is cleaned: "Staff", a lone handle, or one word before a
 * date stamp ("CBS/AP/ June 6, 2013, 10:59 AM") is not a byline.
 */
const twoWords = (v: string) => TWO_WORDS.test(v) && TWO_WORDS.test(cleanAuthor(v) ?? "");
/** Cleaning never adds a word, so a one-word value is refused before it is cleaned. */
const TWO_WORDS = /^\S+\s+\S+/;

/** A body selector and how its value is read. */
export interface BodyRule {
  selector: string;
  read: (el: Element) => string | null;
  /** Only values this accepts (e.g. two words for loose author matches). */
  accept?: (value: string) => boolean;
}

/** Author candidates in the body, in order (values still go through `cleanAuthor`). */
export const AUTHOR_RULES: BodyRule[] = [
  { selector: '[itemprop*="author" i] [itemprop="name"]', read: nameText },
  { selector: '[itemprop*="author" i]', read: nameText },
  { selector: '[rel="author"]', read: nameText },
  { selector: 'a[class*="author" i]', read: nameText, accept: twoWords },
  { selector: '[class*="author" i] a', read: nameText, accept: twoWords },
  { selector: 'a[href*="/author/" i]', read: nameText, accept: twoWords },
  { selector: 'a[class*="screenname" i]', read: nameText },
  { selector: '[class*="author" i]', read: nameText, accept: twoWords },
  { selector: '[class*="byline" i]', read: nameText, accept: twoWords },
];

/** Date candidates in the body, in order (values still go through `toIsoDate`). */
export const DATE_RULES: BodyRule[] = [
  { selector: '[itemprop*="date" i]', read: (el) => attr(el, "content") },
  { selector: '[itemprop*="date" i]', read: (el) => attr(el, "title") },
  { selector: 'time[itemprop*="date" i]', read: (el) => attr(el, "datetime") },
  { selector: "time[datetime]", read: (el) => attr(el, "datetime") },
  { selector: '[class*="byline" i]', read: textOf },
  { selector: '[id*="date" i]', read: textOf },
  { selector: '[class*="date" i]', read: textOf },
  { selector: '[class*="time" i]', read: textOf },
  { selector: '[class*="publish" i]', read: textOf },
];

/** Site-name candidates in the body: the logo's text or alt, a brand link. */
export const PUBLISHER_RULES: BodyRule[] = [
  { selector: "#logo", read: nameText },
  { selector: ".logo", read: nameText },
  { selector: 'a[class*="brand" i]', read: nameText },
  { selector: '[class*="logo" i] a img[alt]', read: (el) => attr(el, "alt") },
  { selector: '[class*="logo" i] img[alt]', read: (el) => attr(el, "alt") },
];

/**
 * The first value the rules find, each checked by `valid` (e.g. parses as a date); the scans
 * pause for other requests when `yieldSoon` is due.
 */
export function fromRules(
  doc: Document,
  rules: BodyRule[],
  valid: (value: string) => boolean = () => true,
  yieldSoon: YieldSoon = cooperative(),
): string | null | Promise<string | null> {
  return run(fromRulesSteps(doc, rules, valid, yieldSoon), yieldSoon);
}

function* fromRulesSteps(
  doc: Document,
  rules: BodyRule[],
  valid: (value: string) => boolean,
  yieldSoon: YieldSoon,
): Steps<string | null> {
  for (const r of rules) {
    const accept = (x: string) => (r.accept?.(x) ?? true) && valid(x);
    const v = yield* firstValue(doc, r.selector, r.read, accept, yieldSoon);
    if (v) return v;
  }
  return null;
}

/** Where an article's body is, most specific first. */
const ARTICLE_ROOTS = ["article", '[itemprop="articleBody"]', "#content", "main", '[role="main"]'];

/** Image URLs that are icons, buttons, spacers, ads or trackers rather than a picture of the page. */
export const NOT_A_PICTURE =
  /(?:^data:|[/_.-](?:icons?|logos?|sprites?|spacer|pixel|blank|buttons?|btn|badge|avatar|gravatar|loading|ajax-loader|1x1)[/_.-]|\.svg(?:$|\?)|doubleclick\.net|\/ads?\/|[?&;]sz=\d+x\d+)/i;

/** Declared width or height under this many pixels: an icon, not a preview. */
const MIN_SIDE = 100;

/** The article's lead image: the first real picture inside the article (not an icon). */
export function leadImage(
  doc: Document,
  yieldSoon: YieldSoon = cooperative(),
): string | null | Promise<string | null> {
  return run(leadImageSteps(doc, yieldSoon), yieldSoon);
}

function* leadImageSteps(doc: Document, yieldSoon: YieldSoon): Steps<string | null> {
  let tested = 0;
  for (const root of ARTICLE_ROOTS) {
    for (const container of yield* select(doc, root, yieldSoon)) {
      if (yieldSoon.due()) yield "pause";
      for (const img of selectUnder(container, "img[src]")) {
        if (++tested % CHECK_EVERY === 0 && yieldSoon.due()) yield "pause";
        const src = attr(img, "src");
        if (!src || NOT_A_PICTURE.test(src)) continue;
        const w = parseInt(img.attribs.width ?? "", 10);
        const h = parseInt(img.attribs.height ?? "", 10);
        if ((w > 0 && w < MIN_SIDE) || (h > 0 && h < MIN_SIDE)) continue;
        return src;
      }
    }
  }
  return null;
}

/** Blocks whose paragraphs are not the page's description. */
const CHROME = new Set(["nav", "header", "footer", "aside", "form", "figure", "blockquote"]);
/** A first paragraph shorter than this is a caption or a dateline, not a description. */
const MIN_PARAGRAPH = 80;
/** A cookie or consent notice is the first paragraph of many pages, never their description. */
const COOKIE_NOTICE = /\bcookies?\b|\bconsent\b|\bGDPR\b/i;
/** Descriptions are cut at a word boundary near this length. */
const MAX_DESCRIPTION = 300;

/** The first real paragraph: in the article when there is one, outside page chrome, not links. */
export function firstParagraph(
  doc: Document,
  yieldSoon: YieldSoon = cooperative(),
): string | null | Promise<string | null> {
  return run(firstParagraphSteps(doc, yieldSoon), yieldSoon);
}

function* firstParagraphSteps(doc: Document, yieldSoon: YieldSoon): Steps<string | null> {
  const roots: Element[] = [];
  for (const r of [...ARTICLE_ROOTS, "body"]) {
    for (const el of yield* select(doc, r, yieldSoon)) roots.push(el);
  }
  let tested = 0;
  for (const root of roots) {
    if (yieldSoon.due()) yield "pause";
    for (const p of selectUnder(root, "p")) {
      if (++tested % CHECK_EVERY === 0 && yieldSoon.due()) yield "pause";
      if (inChrome(p)) continue;
      const value = text(p);
      if (value.length < MIN_PARAGRAPH || COOKIE_NOTICE.test(value)) continue;
      const links = selectUnder(p, "a").reduce((n, a) => n + text(a).length, 0);
      if (links > value.length / 2) continue;
      return clip(value);
    }
  }
  return null;
}

function inChrome(el: Element): boolean {
  for (let p: AnyNode | null = el.parent; p; p = p.parent) {
    if (isTag(p) && CHROME.has(p.name)) return true;
  }
  return false;
}

function clip(value: string): string {
  if (value.length <= MAX_DESCRIPTION) return value;
  const cut = value.slice(0, MAX_DESCRIPTION);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), MAX_DESCRIPTION / 2)).trimEnd()}…`;
}
