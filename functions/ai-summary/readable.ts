/**
 * The reader: the main text of a page, after Mozilla Readability's algorithm (Firefox Reader
 * View), ported to domhandler trees with iterative walks, async: long work awaits the shared
 * cooperative yield (other requests run meanwhile) under the read's time budget. Hidden text goes
 * first (the `hidden` attribute, `aria-hidden`, inline `display:none`, classes such as
 * `sr-only`, `visually-hidden`, `hide-content`); paragraphs are scored (length, commas) and
 * their scores flow to their ancestors, weighted by class names and cut by link density; the
 * best candidate and its worthy siblings are the article, which is then cleaned of link lists,
 * forms and other low-content blocks. Where the first pass finds too little, it tries again
 * with fewer rules, as Readability does; a wrapper named like "sidebar" that holds most of the
 * page's text is never removed. bench/reader.ts measures the agreement with Readability.
 */
import { Element } from "domhandler";
import type { AnyNode, ChildNode, Document } from "domhandler";
import { BLOCKS } from "../../shared/net/blocks.ts";
import type { YieldSoon } from "../../shared/contract/cooperative.ts";
import {
  appendAll,
  childrenOf,
  descendants,
  detach,
  detachAll,
  elementChildren,
  hasAncestor,
  hasDescendant,
  hasText,
  innerText,
  innerTextLength,
  insert,
  isElement,
  isTextNode,
  relinkChildren,
  replace,
  textContent,
  type TextRun,
  textRun,
} from "./dom.ts";
import { removeBoilerplate } from "./boilerplate.ts";
import { cleanTitle } from "./title.ts";
import { bodyOf, DEFAULT_TREE_LIMITS, parseTree, readerYield, type TreeLimits } from "./tree.ts";

/** What the reader gives: the page's clean title and its main text (one line per block). */
export interface ReadResult {
  title: string | null;
  text: string;
}

/** An article under this many characters sends the reader round again with fewer rules. */
export const CHAR_THRESHOLD = 500;
/** Candidates kept while choosing the top one. */
const TOP_CANDIDATES = 5;

// Readability's patterns (Readability.js REGEXPS), kept as written there.
const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE_CANDIDATE = /and|article|body|column|content|main|shadow|story/i;
const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const BYLINE = /byline|author|dateline|writtenby|p-author/i;
const SHARE = /(\b|_)(share|sharedaddy)(\b|_)/i;
const VIDEOS =
  /\/\/(www\.)?((dailymotion|youtube|youtube-nocookie|player\.vimeo|v\.qq)\.com|(archive|upload\.wikimedia)\.org|player\.twitch\.tv)/i;
const COMMAS = /\u002C|\u060C|\uFE50|\uFE10|\uFE11|\u2E41|\u2E34|\u2E32|\uFF0C/g;
const AD_WORDS = /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu;
const LOADING_WORDS = /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu;

const UNLIKELY_ROLES = new Set([
  "menu",
  "menubar",
  "complementary",
  "navigation",
  "alert",
  "alertdialog",
  "dialog",
]);
const TAGS_TO_SCORE = new Set(["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]);
const DIV_TO_P = new Set(["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]);
const ALTER_TO_DIV_EXCEPTIONS = new Set(["div", "article", "section", "p", "ol", "ul"]);
const PHRASING = new Set([
  "abbr",
  "audio",
  "b",
  "bdo",
  "br",
  "button",
  "cite",
  "code",
  "data",
  "datalist",
  "dfn",
  "em",
  "embed",
  "i",
  "img",
  "input",
  "kbd",
  "label",
  "mark",
  "math",
  "meter",
  "noscript",
  "object",
  "output",
  "progress",
  "q",
  "ruby",
  "samp",
  "script",
  "select",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "textarea",
  "time",
  "var",
  "wbr",
]);
/** Never read: code, styles, inert templates, media fallbacks, site navigation and forms' controls. */
const DROPPED = new Set([
  "script",
  "noscript",
  "style",
  "template",
  "link",
  "meta",
  "svg",
  "math",
  "canvas",
  "iframe",
  "object",
  "embed",
  "video",
  "audio",
  "nav",
  "select",
  "button",
  "textarea",
]);

/** Class names that hide text from sight (screen-reader-only and hidden utility classes). */
export const HIDDEN_CLASSES: ReadonlySet<string> = new Set([
  "sr-only",
  "sr-only-focusable",
  "visually-hidden",
  "visuallyhidden",
  "screen-reader-text",
  "screen-reader-only",
  "hide-content",
  "hidden",
  "is-hidden",
  "u-hidden",
  "d-none",
  "hide",
  "offscreen",
  "element-invisible",
  "a11y-hidden",
]);

/** Reader flags: each retry drops the first still set. */
const STRIP_UNLIKELYS = 1;
const WEIGHT_CLASSES = 2;
const CLEAN_CONDITIONALLY = 4;

const score = new WeakMap<Element, number>();
const dataTables = new WeakSet<Element>();

/**
 * Reads an HTML page: its clean title and main text. Throws TreeLimitError (from tree.ts) when
 * the page is over a parse or time limit.
 */
export async function readPage(
  html: string,
  options: { url?: string; limits?: TreeLimits } = {},
): Promise<ReadResult> {
  const limits = options.limits ?? DEFAULT_TREE_LIMITS;
  const yieldSoon = readerYield(limits.maxMs);
  return await readTree(() => parseTree(html, limits, yieldSoon), yieldSoon, options.url);
}

/** The title and main text of the page `parse` parses (readPage, on another tree). */
export async function readTree(
  parse: Reparse,
  yieldSoon: YieldSoon,
  url?: string,
): Promise<ReadResult> {
  const { title, article } = await extractArticle(await parse(), parse, yieldSoon, url);
  return { title, text: article ? await blockText(article, yieldSoon) : "" };
}

/** Parses the page again: each attempt of the article search changes the tree it reads. */
export type Reparse = () => Promise<Document>;

/** The article of a page: its clean title, the article element and the byline the page shows. */
export interface Article {
  title: string | null;
  /** The article's element (detached from the page); null when the page has no body. */
  article: Element | null;
  /** The byline element's text ("By Jane Doe"), left out of the article; null when none. */
  byline: string | null;
}

/**
 * The article element of a parsed page (the tree is changed as it is read); `url`, the
 * page's address, helps tell the site's name in the title. Long work awaits `yieldSoon`
 * (other requests run meanwhile; past its budget it throws TreeLimitError). When the first
 * attempt finds too little text, the next one reads the page from `reparse` (a fresh tree,
 * rather than a copy kept of this one for a retry most pages never need).
 */
export async function extractArticle(
  doc: Document,
  reparse: Reparse,
  yieldSoon: YieldSoon = readerYield(),
  url?: string,
): Promise<Article> {
  const title = cleanTitle(doc, url);
  await yieldSoon();
  const body = bodyOf(doc);
  if (!body) return { title, article: null, byline: null };
  await prepare(body, yieldSoon);
  const found: Found = { byline: null };
  // The same page as `body` now: parsed, then prepared.
  const fresh = async () => {
    const again = bodyOf(await reparse()) ?? body;
    await prepare(again, yieldSoon);
    return again;
  };
  const article = await grabArticle(body, fresh, title ?? "", yieldSoon, found) ?? body;
  await removeBoilerplate(article, yieldSoon);
  return { title, article, byline: found.byline };
}

/** What the article search noticed on its way (the byline it left out). */
interface Found {
  byline: string | null;
}

/** Removes what is never text (scripts, styles, comments) and everything hidden. */
async function prepare(body: Element, yieldSoon: YieldSoon): Promise<void> {
  const stack: AnyNode[] = [...childrenOf(body)];
  let seen = 0;
  while (stack.length > 0) {
    const n = stack.pop()!;
    if ((++seen & 255) === 0) await yieldSoon();
    if (n.type === "comment" || n.type === "directive") {
      detach(n);
      continue;
    }
    if (!isElement(n)) continue;
    if (DROPPED.has(n.name) || isHidden(n)) {
      detach(n);
      continue;
    }
    if (n.name === "font") n.name = "span";
    // No spread (150,000 children overflow it); indexed (see removeBoilerplate's note).
    const kids = n.children;
    for (let i = 0; i < kids.length; i++) stack.push(kids[i]);
  }
}

/** True for an element the page hides: attribute, ARIA, inline style or a hiding class. */
export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  const cls = a.class ?? "";
  if (a["aria-hidden"] === "true" && !cls.includes("fallback-image")) return true;
  const style = a.style?.toLowerCase().replace(/\s+/g, "");
  if (style && (/(^|;)display:none/.test(style) || /(^|;)visibility:hidden/.test(style))) {
    return true;
  }
  if (cls) {
    const lower = cls.toLowerCase();
    // Most class lists hold none of the names: they are not split.
    if (!MAY_HIDE.test(lower)) return false;
    for (const c of lower.split(/\s+/)) if (HIDDEN_CLASSES.has(c)) return true;
  }
  return false;
}
/** Any of HIDDEN_CLASSES within a class list (made from the set: a name added there counts). */
const MAY_HIDE = new RegExp([...HIDDEN_CLASSES].map(RegExp.escape).join("|"));

/** The next element in document order (into children unless `skipChildren`). */
function nextElement(node: Element, skipChildren = false): Element | null {
  if (!skipChildren) {
    const first = node.children.find(isElement);
    if (first) return first;
  }
  for (let n: Element | null = node; n; n = n.parent as Element | null) {
    for (let s = n.next; s; s = s.next) if (isElement(s)) return s;
  }
  return null;
}

function removeAndNext(node: Element): Element | null {
  const next = nextElement(node, true);
  detach(node);
  return next;
}

function matchString(el: Element): string {
  return `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`;
}

function classWeight(el: Element, flags: number): number {
  if (!(flags & WEIGHT_CLASSES)) return 0;
  return nameWeight(el.attribs.class) + nameWeight(el.attribs.id);
}

/** Readability's weight of one class or id: -25 when negative, +25 when positive (or both). */
function nameWeight(v: string | undefined): number {
  if (!v) return 0;
  return (NEGATIVE.test(v) ? -25 : 0) + (POSITIVE.test(v) ? 25 : 0);
}

function initialize(el: Element, flags: number): void {
  let s = 0;
  switch (el.name) {
    case "div":
      s = 5;
      break;
    case "pre":
    case "td":
    case "blockquote":
      s = 3;
      break;
    case "address":
    case "ol":
    case "ul":
    case "dl":
    case "dd":
    case "dt":
    case "li":
    case "form":
      s = -3;
      break;
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
    case "th":
      s = -5;
  }
  score.set(el, s + classWeight(el, flags));
}

/**
 * Lengths of `innerText` by element while the tree does not change (null: not caching). The
 * clean-up asks for the same subtrees' lengths again and again; without the cache a deeply
 * nested page costs cubic time.
 */
let lengths: Map<Element, number> | null = null;

/** `innerText(el).length`, from the cache when one is running. */
function textLength(el: Element): number {
  if (!lengths) return innerTextLength(el);
  let n = lengths.get(el);
  if (n === undefined) lengths.set(el, n = innerTextLength(el));
  return n;
}

/**
 * Runs `step(0)` to `step(count - 1)` with the length cache on; `step` must call
 * `lengths.clear()` after changing the tree. The steps run in slices: when `yieldSoon` is due,
 * the cache is put away and the yield awaited (other pages are read meanwhile, and this
 * module's one cache must not be theirs), then the next slice starts with a fresh cache.
 */
async function withLengths(
  count: number,
  step: (i: number) => void,
  yieldSoon: YieldSoon,
): Promise<void> {
  for (let i = 0; i < count;) {
    await yieldSoon();
    lengths = new Map();
    try {
      do step(i++); while (i < count && !yieldSoon.due());
    } finally {
      lengths = null;
    }
  }
}

/** Share of an element's text that sits in links (in-page `#` links count 0.3). */
export function linkDensity(el: Element): number {
  const length = textLength(el);
  if (length === 0) return 0;
  let links = 0;
  for (const a of descendants(el, A)) links += textLength(a) * linkWeight(a);
  return links / length;
}
const A = new Set(["a"]);

/** The weight of a link's text in a link density: in-page `#` links count 0.3. */
function linkWeight(a: Element): number {
  const href = a.attribs.href;
  return href && /^#.+/.test(href) ? 0.3 : 1;
}

/**
 * `linkDensity` of each of `candidates` (elements under `root`, the tree unchanged meanwhile),
 * in their order. Inner candidates are measured first and each outer one's walk takes their
 * text and links as measured, so every node is walked about once: measured one by one, nested
 * candidates walked their subtrees again (a page of nested comment threads, htmlparser-
 * benchmark's 387 KiB DailyTech article, spent most of its read there).
 */
export async function linkDensities(
  root: Element,
  candidates: readonly Element[],
  yieldSoon: YieldSoon,
): Promise<number[]> {
  // Reverse document order puts every candidate after the candidates inside it.
  const wanted = new Set(candidates);
  const order = [root, ...descendants(root)].filter((el) => wanted.has(el));
  const runs = new Map<Element, TextRun>();
  const links = new Map<Element, number>();
  const known = (el: Element) => runs.get(el);
  for (let k = order.length - 1; k >= 0; k--) {
    await yieldSoon();
    const el = order[k];
    // Link text under `el`: a measured candidate's as measured, other links' walked (each
    // element is walked by its nearest candidate only, the outer ones stopping there).
    let sum = 0;
    const below: Element[] = [];
    for (let i = el.children.length - 1; i >= 0; i--) {
      const kid = el.children[i];
      if (isElement(kid)) below.push(kid);
    }
    while (below.length > 0) {
      const d = below.pop()!;
      const inner = links.get(d);
      if (d.name === "a") sum += (runs.get(d) ?? textRun(d, known)).length * linkWeight(d);
      if (inner !== undefined) {
        sum += inner;
        continue;
      }
      for (let i = d.children.length - 1; i >= 0; i--) {
        const kid = d.children[i];
        if (isElement(kid)) below.push(kid);
      }
    }
    runs.set(el, textRun(el, known));
    links.set(el, sum);
  }
  return candidates.map((c) => {
    const length = runs.get(c)?.length;
    // A candidate outside `root` (the callers have none) is measured on its own.
    if (length === undefined) return linkDensity(c);
    return length === 0 ? 0 : links.get(c)! / length;
  });
}

function isPhrasing(node: AnyNode): boolean {
  if (isTextNode(node)) return true;
  if (!isElement(node)) return false;
  if (PHRASING.has(node.name)) return true;
  // An inline element that holds only inline content (checked one level at a time).
  if (node.name === "a" || node.name === "del" || node.name === "ins") {
    return descendants(node).every((d) => PHRASING.has(d.name) || INLINE_WRAPPERS.has(d.name));
  }
  return false;
}
const INLINE_WRAPPERS = new Set(["a", "del", "ins"]);

function isWhitespace(node: AnyNode): boolean {
  return (isTextNode(node) && node.data.trim() === "") || (isElement(node) && node.name === "br");
}

function hasChildBlock(el: Element): boolean {
  return hasDescendant(el, DIV_TO_P);
}

function hasSingleChild(el: Element, name: string): boolean {
  const kids = elementChildren(el);
  if (kids.length !== 1 || kids[0].name !== name) return false;
  return !el.children.some((n) => isTextNode(n) && n.data.trim() !== "");
}

function isWithoutContent(el: Element): boolean {
  if (hasText(el)) return false;
  const kids = elementChildren(el);
  return kids.length === 0 ||
    kids.length === descendants(el, BR_HR).length;
}
const BR_HR = new Set(["br", "hr"]);

function textSimilarity(a: string, b: string): number {
  const ta = a.toLowerCase().split(/\W+/).filter(Boolean);
  const tb = b.toLowerCase().split(/\W+/).filter(Boolean);
  if (!ta.length || !tb.length) return 0;
  const uniq = tb.filter((t) => !ta.includes(t));
  return 1 - uniq.join(" ").length / tb.join(" ").length;
}

/** Ancestors of `el`, nearest first, at most `max` (0: all). */
function ancestors(el: Element, max = 0): Element[] {
  const out: Element[] = [];
  for (let p = el.parent; p && isElement(p); p = p.parent) {
    out.push(p);
    if (max && out.length === max) break;
  }
  return out;
}

/**
 * True when removing an unlikely-looking wrapper would drop the article: it holds an
 * `<article>`/`<main>` or most of the page's text.
 */
function holdsArticle(el: Element, pageLength: number): boolean {
  if (hasDescendant(el, ARTICLE_TAGS)) return true;
  return pageLength > 0 && innerTextLength(el) > pageLength / 2;
}
const ARTICLE_TAGS = new Set(["article", "main"]);

/**
 * The article element under `body`, Readability-style; null when nothing has text. Each
 * attempt after the first reads a `fresh` copy of the page's body.
 */
async function grabArticle(
  body: Element,
  fresh: () => Promise<Element>,
  title: string,
  yieldSoon: YieldSoon,
  found: Found,
): Promise<Element | null> {
  const pageLength = innerTextLength(body);
  await yieldSoon();
  let flags = STRIP_UNLIKELYS | WEIGHT_CLASSES | CLEAN_CONDITIONALLY;
  const attempts: { article: Element; length: number }[] = [];
  let page = body;
  for (;;) {
    const article = await attempt(page, title, flags, pageLength, yieldSoon, found);
    const length = innerTextLength(article);
    if (length >= CHAR_THRESHOLD) return article;
    attempts.push({ article, length });
    if (flags & STRIP_UNLIKELYS) flags &= ~STRIP_UNLIKELYS;
    else if (flags & WEIGHT_CLASSES) flags &= ~WEIGHT_CLASSES;
    else if (flags & CLEAN_CONDITIONALLY) flags &= ~CLEAN_CONDITIONALLY;
    else {
      attempts.sort((a, b) => b.length - a.length);
      return attempts[0].length > 0 ? attempts[0].article : null;
    }
    page = await fresh();
  }
}

/** One pass of the article search over `page` with `flags`. */
async function attempt(
  page: Element,
  title: string,
  flags: number,
  pageLength: number,
  yieldSoon: YieldSoon,
  found: Found,
): Promise<Element> {
  const toScore: Element[] = [];
  let removeTitleHeader = true;
  let bylineFound = false;
  let node: Element | null = page;
  let seen = 0;
  while (node) {
    if ((++seen & 63) === 0) await yieldSoon();
    const match = matchString(node);
    if (node.attribs["aria-modal"] === "true" && node.attribs.role === "dialog") {
      node = removeAndNext(node);
      continue;
    }
    if (!bylineFound && node !== page && isByline(node, match)) {
      bylineFound = true;
      found.byline ??= textContent(node).replace(/\s+/g, " ").trim();
      node = removeAndNext(node);
      continue;
    }
    if (
      removeTitleHeader && (node.name === "h1" || node.name === "h2") &&
      textSimilarity(title, innerText(node)) > 0.75
    ) {
      removeTitleHeader = false;
      node = removeAndNext(node);
      continue;
    }
    if (flags & STRIP_UNLIKELYS && node !== page) {
      if (
        UNLIKELY.test(match) && !MAYBE_CANDIDATE.test(match) && node.name !== "a" &&
        !hasAncestor(node, "table") && !hasAncestor(node, "code") &&
        !holdsArticle(node, pageLength)
      ) {
        node = removeAndNext(node);
        continue;
      }
      if (UNLIKELY_ROLES.has(node.attribs.role ?? "")) {
        node = removeAndNext(node);
        continue;
      }
    }
    if (
      (node.name === "div" || node.name === "section" || node.name === "header" ||
        /^h[1-6]$/.test(node.name)) && isWithoutContent(node)
    ) {
      node = removeAndNext(node);
      continue;
    }
    if (TAGS_TO_SCORE.has(node.name)) toScore.push(node);
    if (node.name === "div") {
      wrapPhrasingRuns(node);
      if (hasSingleChild(node, "p") && linkDensity(node) < 0.25) {
        const child = elementChildren(node)[0];
        replace(node, child);
        node = child;
        toScore.push(node);
      } else if (!hasChildBlock(node)) {
        node.name = "p";
        toScore.push(node);
      }
    }
    node = nextElement(node);
  }

  const candidates: Element[] = [];
  for (let i = 0; i < toScore.length; i++) {
    const el = toScore[i];
    if ((i & 63) === 63) await yieldSoon();
    if (!el.parent || !isElement(el.parent)) continue;
    const text = innerText(el);
    if (text.length < 25) continue;
    const ups = ancestors(el, 5);
    if (ups.length === 0) continue;
    const points = 1 + text.split(COMMAS).length + Math.min(Math.floor(text.length / 100), 3);
    ups.forEach((up, level) => {
      if (!up.parent || !isElement(up.parent)) return;
      if (!score.has(up)) {
        initialize(up, flags);
        candidates.push(up);
      }
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      score.set(up, score.get(up)! + points / divider);
    });
  }
  await yieldSoon();

  const top: Element[] = [];
  const densities = await linkDensities(page, candidates, yieldSoon);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    const s = score.get(c)! * (1 - densities[i]);
    score.set(c, s);
    for (let t = 0; t < TOP_CANDIDATES; t++) {
      if (!top[t] || s > score.get(top[t])!) {
        top.splice(t, 0, c);
        if (top.length > TOP_CANDIDATES) top.pop();
        break;
      }
    }
  }
  await yieldSoon();

  let topCandidate: Element = top[0] ?? page;
  let createdTop = false;
  if (topCandidate === page || topCandidate.name === "body") {
    topCandidate = new Element("div", {}, []);
    appendAll(topCandidate, [...page.children]);
    insert(page, topCandidate);
    initialize(topCandidate, flags);
    createdTop = true;
  } else {
    const alternatives = top.slice(1)
      .filter((c) => score.get(c)! / score.get(topCandidate)! >= 0.75)
      .map((c) => ancestors(c));
    if (alternatives.length >= 3) {
      for (let p = topCandidate.parent as Element | null; p && p !== page; p = parentEl(p)) {
        if (alternatives.filter((list) => list.includes(p!)).length >= 3) {
          topCandidate = p;
          break;
        }
      }
    }
    if (!score.has(topCandidate)) initialize(topCandidate, flags);
    let last = score.get(topCandidate)!;
    const threshold = last / 3;
    for (let p = parentEl(topCandidate); p && p !== page; p = parentEl(p)) {
      if (!score.has(p)) continue;
      const s = score.get(p)!;
      if (s < threshold) break;
      if (s > last) {
        topCandidate = p;
        break;
      }
      last = s;
    }
    for (
      let p = parentEl(topCandidate);
      p && p !== page && elementChildren(p).length === 1;
      p = parentEl(p)
    ) topCandidate = p;
    if (!score.has(topCandidate)) initialize(topCandidate, flags);
  }

  const article = new Element("div", {}, []);
  const topScore = score.get(topCandidate)!;
  const siblingThreshold = Math.max(10, topScore * 0.2);
  const parent = createdTop ? null : parentEl(topCandidate);
  const siblings = parent ? elementChildren(parent) : [topCandidate];
  const appended: Element[] = [];
  for (let i = 0; i < siblings.length; i++) {
    const sibling = siblings[i];
    if ((i & 63) === 63) await yieldSoon();
    let append = sibling === topCandidate;
    if (!append) {
      const cls = topCandidate.attribs.class ?? "";
      const bonus = cls !== "" && sibling.attribs.class === cls ? topScore * 0.2 : 0;
      if (score.has(sibling) && score.get(sibling)! + bonus >= siblingThreshold) append = true;
      else if (sibling.name === "p") {
        const density = linkDensity(sibling);
        const text = innerText(sibling);
        if (text.length > 80 && density < 0.25) append = true;
        else if (text.length < 80 && text.length > 0 && density === 0 && /\.( |$)/.test(text)) {
          append = true;
        }
      }
    }
    if (append) {
      if (!ALTER_TO_DIV_EXCEPTIONS.has(sibling.name)) sibling.name = "div";
      appended.push(sibling);
    }
  }
  appendAll(article, appended);
  await yieldSoon();
  await prepArticle(article, flags, yieldSoon);
  return article;
}

function parentEl(el: Element): Element | null {
  return isElement(el.parent) ? el.parent : null;
}

function isByline(el: Element, match: string): boolean {
  const rel = el.attribs.rel;
  const itemprop = el.attribs.itemprop;
  if (!(rel === "author" || (itemprop && itemprop.includes("author")) || BYLINE.test(match))) {
    return false;
  }
  const length = textContent(el).trim().length;
  return length > 0 && length < 100;
}

/** Readability's div-to-p step: runs of inline content directly in a div become paragraphs. */
function wrapPhrasingRuns(div: Element): void {
  // One pass that rebuilds the child lists: moving children one by one (insert/detach) costs an
  // indexOf and a splice each, quadratic in a div of 150,000 images.
  const kids: AnyNode[] = [];
  let run: AnyNode[] | null = null;
  const made: Element[] = [];
  const close = () => {
    while (run && run.length > 0 && isWhitespace(run[run.length - 1])) unlink(run.pop()!);
    run = null;
  };
  for (let i = 0; i < div.children.length; i++) {
    const child = div.children[i];
    if (isPhrasing(child)) {
      if (run) run.push(child);
      else if (!isWhitespace(child)) {
        run = [child];
        made.push(new Element("p", {}, run as ChildNode[]));
        kids.push(made[made.length - 1]);
      } else kids.push(child);
    } else {
      close();
      kids.push(child);
    }
  }
  if (made.length === 0) return;
  relinkChildren(div, kids);
  for (const p of made) relinkChildren(p, p.children);
}

/** Clears a node's links once it is in no child list. */
function unlink(node: AnyNode): void {
  node.parent = node.prev = node.next = null;
}

/** Readability's clean-up of the chosen article. */
async function prepArticle(article: Element, flags: number, yieldSoon: YieldSoon): Promise<void> {
  markDataTables(article);
  await cleanConditionally(article, "form", flags, yieldSoon);
  await cleanConditionally(article, "fieldset", flags, yieldSoon);
  for (const tag of ["object", "embed", "footer", "link", "aside"]) {
    clean(article, tag);
    await yieldSoon();
  }
  let seen = 0;
  for (const top of elementChildren(article)) {
    for (const el of descendants(top)) {
      if ((++seen & 255) === 0) await yieldSoon();
      if (SHARE.test(matchString(el)) && textContent(el).length < CHAR_THRESHOLD) detach(el);
    }
  }
  for (const tag of ["iframe", "input", "textarea", "select", "button"]) {
    clean(article, tag);
    await yieldSoon();
  }
  detachAll(descendants(article, H1_H2).filter((h) => classWeight(h, flags) < 0));
  await yieldSoon();
  await cleanConditionally(article, "table", flags, yieldSoon);
  await cleanConditionally(article, "ul", flags, yieldSoon);
  await cleanConditionally(article, "div", flags, yieldSoon);
  await yieldSoon();
}
const H1_H2 = new Set(["h1", "h2"]);

function clean(root: Element, tag: string): void {
  const isEmbed = tag === "object" || tag === "embed" || tag === "iframe";
  detachAll(
    descendants(root, new Set([tag])).filter((el) =>
      !(isEmbed && Object.values(el.attribs).some((v) => VIDEOS.test(v)))
    ),
  );
}

function markDataTables(root: Element): void {
  for (const table of descendants(root, new Set(["table"]))) {
    if (table.attribs.role === "presentation" || table.attribs.datatable === "0") continue;
    if (table.attribs.summary) {
      dataTables.add(table);
      continue;
    }
    const caption = descendants(table, new Set(["caption"]))[0];
    if (caption && caption.children.length > 0) {
      dataTables.add(table);
      continue;
    }
    const inner = descendants(table);
    if (inner.some((d) => DATA_TABLE_TAGS.has(d.name))) {
      dataTables.add(table);
      continue;
    }
    if (inner.some((d) => d.name === "table")) continue;
    let rows = 0;
    let columns = 0;
    for (const tr of inner.filter((d) => d.name === "tr")) {
      rows += parseInt(tr.attribs.rowspan ?? "", 10) || 1;
      let cols = 0;
      for (const td of descendants(tr, TD)) cols += parseInt(td.attribs.colspan ?? "", 10) || 1;
      columns = Math.max(columns, cols);
    }
    if (columns === 1 || rows === 1) continue;
    if (rows >= 10 || columns > 4 || rows * columns > 10) dataTables.add(table);
  }
}
const DATA_TABLE_TAGS = new Set(["col", "colgroup", "tfoot", "thead", "th"]);
const TD = new Set(["td"]);
const UL_OL = new Set(["ul", "ol"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const TEXTISH = new Set(["span", "li", "td", ...DIV_TO_P]);
const EMBEDS = new Set(["object", "embed", "iframe"]);

function textDensity(el: Element, tags: ReadonlySet<string>): number {
  const length = textLength(el);
  if (length === 0) return 0;
  let inner = 0;
  for (const d of descendants(el, tags)) inner += textLength(d);
  return inner / length;
}

/** Removes `tag` elements that look like boilerplate (Readability's `_cleanConditionally`). */
async function cleanConditionally(
  root: Element,
  tag: string,
  flags: number,
  yieldSoon: YieldSoon,
): Promise<void> {
  if (!(flags & CLEAN_CONDITIONALLY)) return;
  const isDataTable = (t: Element) => dataTables.has(t);
  const nodes = descendants(root, new Set([tag]));
  await withLengths(nodes.length, (j) => {
    const node = nodes[nodes.length - 1 - j]; // last first
    if (!node.parent) return;
    if (shouldRemove(node, tag, flags, isDataTable)) {
      detach(node);
      lengths?.clear(); // its ancestors' texts changed
    }
  }, yieldSoon);
}

function shouldRemove(
  node: Element,
  tag: string,
  flags: number,
  isDataTable: (t: Element) => boolean,
): boolean {
  let isList = tag === "ul" || tag === "ol";
  const text = innerText(node);
  if (!isList) {
    let listLength = 0;
    for (const l of descendants(node, UL_OL)) listLength += textLength(l);
    isList = listLength / text.length > 0.9;
  }
  if (tag === "table" && isDataTable(node)) return false;
  if (hasAncestor(node, "table", 0, isDataTable)) return false;
  if (hasAncestor(node, "code")) return false;
  const inner = descendants(node);
  if (inner.some((d) => d.name === "table" && isDataTable(d))) return false;
  const weight = classWeight(node, flags);
  if (weight < 0) return true;
  if ((text.match(/,/g)?.length ?? 0) >= 10) return false;
  const count = (name: string) => inner.filter((d) => d.name === name).length;
  const p = count("p");
  const img = count("img");
  const li = count("li") - 100;
  const input = count("input");
  const headingDensity = textDensity(node, HEADINGS);
  let embeds = 0;
  for (const e of inner.filter((d) => EMBEDS.has(d.name))) {
    if (Object.values(e.attribs).some((v) => VIDEOS.test(v))) return false;
    embeds++;
  }
  if (AD_WORDS.test(text) || LOADING_WORDS.test(text)) return true;
  const length = text.length;
  const density = linkDensity(node);
  const textishDensity = textDensity(node, TEXTISH);
  const inFigure = hasAncestor(node, "figure");
  const remove = (!inFigure && img > 1 && p / img < 0.5) ||
    (!isList && li > p) ||
    input > Math.floor(p / 3) ||
    (!isList && !inFigure && headingDensity < 0.9 && length < 25 && (img === 0 || img > 2) &&
      density > 0) ||
    (!isList && weight < 25 && density > 0.2) ||
    (weight >= 25 && density > 0.5) ||
    (embeds === 1 && length < 75) || embeds > 1 ||
    (img === 0 && textishDensity === 0);
  if (isList && remove) {
    if (elementChildren(node).some((c) => elementChildren(c).length > 1)) return true;
    if (img === count("li")) return false;
  }
  return remove;
}

/**
 * Text under `root`, one line per block, white space collapsed within lines (`yieldSoon` is
 * awaited every few hundred nodes).
 */
export async function blockText(
  root: AnyNode,
  yieldSoon: () => Promise<void> = readerYield(),
): Promise<string> {
  const parts: string[] = [];
  // Iterative walk: an entry is a node to visit, or a "\n" to emit after a block's children.
  const stack: (AnyNode | "\n")[] = [root];
  let seen = 0;
  while (stack.length > 0) {
    if ((++seen & 255) === 0) await yieldSoon();
    const n = stack.pop()!;
    if (n === "\n") {
      parts.push("\n");
      continue;
    }
    if (isTextNode(n)) {
      parts.push(n.data.replace(/\s+/g, " "));
      continue;
    }
    if (isElement(n) && DROPPED.has(n.name)) continue;
    const block = isElement(n) && BLOCKS.has(n.name);
    if (block) {
      parts.push("\n");
      stack.push("\n");
    }
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return parts.join("").split("\n").map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => l.length > 0).join("\n");
}
