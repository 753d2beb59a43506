/**
 * What Readability keeps inside an article that is not the article: the reader's last pass,
 * for precision. Readability chooses the right container but keeps what sits in it beside
 * the story: photo captions and credits, date lines, "RELATED:" teasers and related-story
 * lists, share and follow bars, newsletter prompts, author bios, comment notices, copyright
 * lines. Three rules, each cheap (one walk, lengths cached):
 *
 * 1. By name: an element whose class or id names such a block (caption, credit, dateline,
 *    related, most-popular, share, newsletter, author-bio, comments...) and holds under a
 *    quarter of the article's text (so the story is never dropped with a wrapper named, say,
 *    "post-with-comments").
 * 2. By text: a short block that reads as one (a teaser label and a link, a date alone, a
 *    copyright or "all rights reserved" line, "Follow X on Twitter", a newsletter prompt, a
 *    comment notice, an author tagline among the last blocks, a contact line with an e-mail
 *    address, a pointer elsewhere in brackets or "See more ..."), and a section label ("Story
 *    highlights", "Related posts") with the list or short block it introduces.
 * 3. By links: two or more blocks in a row that are nothing but a short link (a list of other
 *    stories).
 * 4. By structure (boxes.ts): media boxes, teaser runs, repeated texts. Rules 1 and 4 together
 *    remove nothing when they would take over 60% of the text (a slideshow's captions are it).
 */
import type { Element } from "domhandler";
import { BLOCKS } from "../../shared/net/blocks.ts";
import { mapSoon } from "../../shared/contract/cooperative.ts";
import { structuralBoxes } from "./boxes.ts";
import { descendants, detachAll, innerText, isElement, isTextNode } from "./dom.ts";
import { readerYield } from "./tree.ts";

/**
 * Class/id words that name a block beside the story, matched as whole words of the names
 * lowercased with camelCase split ("relatedArticles" is "related-articles").
 */
const BOILERPLATE_NAME = new RegExp(
  [
    "caption",
    "captions?",
    "cutline",
    "credits?",
    "photographer",
    "image-?title",
    "date(?:line|stamp|block|year)?",
    "timestamp",
    "time-?text",
    "byline",
    "related",
    "rel-full",
    "more-?stories",
    "top-?stories",
    "stories",
    "most-?popular",
    "popular",
    "trending",
    "recommend(?:ed|ations)?",
    "promo(?:tion|tional)?",
    "sponsored",
    "outbrain",
    "taboola",
    "newsletter",
    "subscribe",
    "subscription",
    "sign-?up",
    "share(?:bar|ico|tools)?",
    "sharing",
    "social",
    "follow",
    "comments?",
    "opinions",
    "ratings?",
    "author-?bio",
    "bio",
    "about-?the-?author",
    "tagline",
    "tags",
    "breadcrumbs?",
    "header",
    "summary",
    "dek",
    "standfirst",
    "highlights?",
    "slideshow",
    "gallery",
    "toolbar",
    "toplinks",
    "print(?:ico)?",
    "text-?size",
    "enlarge",
    "playlist",
    "button",
    "tabs",
    "nocontent",
    "guidelines",
    "paywall",
    "cookie",
    "consent",
  ].map((w) => `(?:^|[\\s_-])${w}(?=$|[\\s_-])`).join("|"),
);

/** Blocks whose short texts are data, never judged by their text: table cells, code. */
const DATA = new Set(["td", "th", "pre", "code"]);
/** The largest share of the article's text a block removed by its name may hold. */
const MAX_NAMED_SHARE = 0.25;
/** The largest share of the article's text rule 1 may remove in all (else it removes nothing). */
const MAX_REMOVED_SHARE = 0.6;
/** Blocks longer than this are never judged by their text alone. */
const SHORT_BLOCK = 300;

const MONTHS =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const DAYS =
  "mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?";
/** Words a date line is made of, besides the date itself. */
const DATE_WORDS = new RegExp(
  `\\b(?:${MONTHS}|${DAYS}|updated?|published|posted|last|at|on|am|pm|a\\.m|p\\.m|gmt|utc|[ecmp][sd]t|et|bst|cet|ist)\\b\\.?`,
  "gi",
);
const YEAR_OR_TIME = /\b(?:19|20)\d{2}\b|\b\d{1,2}:\d{2}\b/;
const TEASER =
  /^[([]?\s*(?:related(?: stories| articles| content| coverage| links?)?|read more|read also|also read|now read|see also|more on this(?: story)?|more|recommended|list|analysis|photos?|gallery|slideshow|video|watch|listen|on topic|don't miss|also see|further reading)\s*:/i;
const CAPTION_LABEL = /^(?:image|photo|photograph|picture|credit|source)s?\s*:/i;
/** A pointer to more elsewhere: "See more by X", "Read more about X", "Want more X? Click here". */
const MORE_ELSEWHERE = /^(?:see|read|want|get|find) more\b/i;
/** A whole block in brackets or parentheses: an aside pointing elsewhere when it holds a link. */
const BRACKETED = /^(?:\[.*\]|\(.*\))$/;
/** A source credit: "Via Sprint". */
const VIA = /^via\s+\S.{0,40}$/i;
/** An e-mail address: a short block that holds one is a contact line. */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
/** A contact line is at most this long. */
const CONTACT_MAX = 150;
/** A block that names a section of links beside the story rather than saying anything. */
const SECTION_LABEL =
  /^(?:story highlights|related (?:posts|stories|articles|links|content|coverage)|slideshow|photo gallery|breaking news|most (?:popular|read|viewed|shared|emailed)(?: \w+)?|also on [\w ]{1,20}|part of complete coverage on)$/i;
/** A count of shares, likes or comments. */
const SOCIAL_COUNT = /^[\d.,]+k?\s+(?:shares?|likes?|tweets?|comments?|reactions?)$/i;
const COPYRIGHT =
  /^(?:©|\(c\)\s*\d{4}|copyright\b)|all rights reserved|not to be reproduced|may not be (?:published|reproduced|redistributed)/i;
const FOLLOW =
  /^follow\b.{0,60}\b(?:on|at|via)\b\s*(?::|twitter|facebook|instagram|https?:|@)|\bon twitter\s*:?\s*(?:https?:\/\/|@)|^follow (?:me|us) on\b/i;
const COMMENT_NOTICE =
  /^(?:comments are\b|have something to say\b|share your (?:views|thoughts)\b|add your (?:comment|opinion)|leave a (?:comment|reply)|join the (?:conversation|discussion)|\d+ comments?$|show comments|view comments)/i;
const NEWSLETTER =
  /\bnewsletter\b|\b(?:sign up|subscribe)\b.{0,60}\b(?:email|e-mail|updates|alerts)\b/i;
const AUTHOR_TAGLINE =
  /^(?:[A-Z][\w.'’-]+\s){1,3}(?:is|was) (?:a|an|the)\b.{0,100}\b(?:reporter|writer|correspondent|editor|columnist|journalist|contributor|blogger|freelance)|^[A-Z][\w.'’-]+(?:\s[A-Z][\w.'’-]+){0,2} (?:also )?writes for\b/;
const BYLINE_LINE =
  /^[Bb]y$|^(?:[Ww]ritten |[Rr]eported |[Pp]osted )?[Bb]y\s+[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){0,3}$/;
const SEPARATOR = /^[\s_\-–—*•·=~|]+$/;

/**
 * Removes the blocks beside the story from `article` (in place), awaiting `yieldSoon` every
 * few hundred elements.
 */
export async function removeBoilerplate(
  article: Element,
  yieldSoon: () => Promise<void> = readerYield(),
): Promise<void> {
  // Loops over arrays here and in the reader are indexed: on an instance's first page they run
  // unoptimised, where `for...of` makes an iterator result per item (garbage for the collector).
  // One bottom-up pass: each element's text size and whether a block sits inside it.
  const all = descendants(article);
  const size = new Map<Element, number>();
  const blockInside = new Set<Element>();
  const withText = new Set<Element>(); // elements with a text child of their own
  for (let i = all.length - 1; i >= 0; i--) {
    if ((i & 255) === 0) await yieldSoon();
    const el = all[i];
    let n = 0;
    for (let j = 0; j < el.children.length; j++) {
      const c = el.children[j];
      if (isTextNode(c)) {
        n += c.data.replace(/\s+/g, " ").length;
        if (c.data.trim() !== "") withText.add(el);
      } else if (isElement(c)) {
        n += size.get(c) ?? 0;
        if (BLOCKS.has(c.name) || blockInside.has(c)) blockInside.add(el);
      }
    }
    size.set(el, n);
  }
  let total = 0;
  for (let j = 0; j < article.children.length; j++) {
    const c = article.children[j];
    total += isElement(c) ? size.get(c) ?? 0 : isTextNode(c) ? c.data.length : 0;
    if (isTextNode(c) && c.data.trim() !== "") withText.add(article);
  }
  if (total === 0) return;
  const boxes = await structuralBoxes(article, all, size, total, blockInside, yieldSoon);
  // 1. By name (pre-order: a removed block's insides are not visited).
  const removed = new Set<Element>();
  let seen = 0;
  for (let j = 0; j < all.length; j++) {
    const el = all[j];
    if ((++seen & 255) === 0) await yieldSoon();
    if (el.parent && removed.has(el.parent as Element)) {
      removed.add(el);
      continue;
    }
    if (
      boxes.has(el) || el.name === "figcaption" ||
      namesBoilerplate(el) && (size.get(el) ?? 0) < total * MAX_NAMED_SHARE &&
        !inRunningText(el, blockInside, withText)
    ) {
      removed.add(el);
    }
  }
  // Named and boxed blocks holding most of the text are the article (a slideshow, a gallery).
  let removedSize = 0;
  for (const el of removed) {
    if (!removed.has(el.parent as Element)) removedSize += size.get(el) ?? 0;
  }
  if (removedSize > total * MAX_REMOVED_SHARE) removed.clear();
  // 2 and 3. Leaf blocks (no block inside), in document order.
  const leaves = all.filter((el) =>
    !removed.has(el) && BLOCKS.has(el.name) && !blockInside.has(el) && !DATA.has(el.name)
  );
  const texts = await mapSoon(leaves, (el) => innerText(el).replace(/\s+/g, " "), yieldSoon);
  const linkOnly = await mapSoon(leaves, (el, i) => isLinkOnly(el, texts[i]), yieldSoon);
  const drop: Element[] = [];
  for (let i = 0; i < leaves.length; i++) {
    const el = leaves[i];
    if ((i & 255) === 255) await yieldSoon();
    const nearEnd = i >= leaves.length - 3;
    const inLinkRun = linkOnly[i] && (linkOnly[i - 1] || linkOnly[i + 1]);
    if (inLinkRun || readsAsBoilerplate(el, texts[i], nearEnd)) drop.push(el);
    // What a section label introduces (its list, or one short block) goes with it.
    if (texts[i].length <= SHORT_BLOCK && SECTION_LABEL.test(texts[i])) {
      const next = nextElementSibling(el);
      if (next && (LISTS.has(next.name) || (size.get(next) ?? 0) <= SHORT_BLOCK)) drop.push(next);
    }
  }
  detachAll([...removed].filter((el) => !el.parent || !removed.has(el.parent as Element)));
  detachAll(drop);
}

/**
 * An inline element with text beside it in the same parent (a "MIAMI —" dateline span that
 * opens the first paragraph): part of a sentence, not a block of its own.
 */
function inRunningText(
  el: Element,
  blockInside: ReadonlySet<Element>,
  withText: ReadonlySet<Element>,
): boolean {
  if (BLOCKS.has(el.name) || blockInside.has(el)) return false;
  return el.parent !== null && withText.has(el.parent as Element);
}

function namesBoilerplate(el: Element): boolean {
  const a = el.attribs;
  const name = `${a.class ?? ""} ${a.id ?? ""}`.trim();
  if (name === "") return false;
  return BOILERPLATE_NAME.test(name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase());
}

/** A short block that is all link (a headline pointing elsewhere). */
function isLinkOnly(el: Element, text: string): boolean {
  if (text.length === 0 || text.length > 150) return false;
  let links = 0;
  for (const a of descendants(el, A)) links += innerText(a).replace(/\s+/g, " ").trim().length;
  return links >= text.length * 0.9;
}
const A = new Set(["a"]);

/** True when a short block's text says it is not the story. */
export function readsAsBoilerplate(el: Element, text: string, nearEnd: boolean): boolean {
  if (text.length > SHORT_BLOCK) return false;
  if (text === "") return false; // <br>, <hr>, an image: structure, not text
  if (SEPARATOR.test(text)) return true;
  if (TEASER.test(text) && (hasLink(el) || text.length < 150)) return true;
  if (CAPTION_LABEL.test(text) || SECTION_LABEL.test(text) || SOCIAL_COUNT.test(text)) return true;
  if (text.length <= CONTACT_MAX && EMAIL.test(text)) return true;
  if (
    (MORE_ELSEWHERE.test(text) || BRACKETED.test(text) || VIA.test(text)) && hasLink(el)
  ) {
    return true;
  }
  if (COPYRIGHT.test(text) || FOLLOW.test(text) || COMMENT_NOTICE.test(text)) return true;
  if (NEWSLETTER.test(text) && (hasLink(el) || /\b(?:sign up|subscribe|get it)\b/i.test(text))) {
    return true;
  }
  if (isDateLine(text) || BYLINE_LINE.test(text)) return true;
  return nearEnd && AUTHOR_TAGLINE.test(text);
}

/** A date (or a dateline: a place and a date) with hardly a word besides. */
export function isDateLine(text: string): boolean {
  if (text.length > 80 || !YEAR_OR_TIME.test(text)) return false;
  const rest = text.replace(DATE_WORDS, " ").match(/\p{L}{2,}/gu) ?? [];
  return rest.length <= 2;
}

const LISTS = new Set(["ul", "ol", "dl"]);

function nextElementSibling(el: Element): Element | null {
  for (let n = el.next; n; n = n.next) {
    if (isElement(n)) return n;
    if (isTextNode(n) && n.data.trim() !== "") return null;
  }
  return null;
}

function hasLink(el: Element): boolean {
  return descendants(el, A).length > 0;
}
