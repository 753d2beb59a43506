/**
 * Boxes inside an article that are not the story, told by their structure rather than their
 * names or words (the precision pass's structural half; boilerplate.ts calls it):
 *
 * 1. Media boxes: the largest element around an image whose text stays short (a caption, a
 *    credit, a slideshow's labels). Icons, and images inside a sentence (text before them in
 *    their block) or a long paragraph, leave the text alone. Known limit: a short paragraph
 *    (under CAPTION_MAX) that opens with an image reads as a caption (the reader's tree has
 *    turned many caption divs into paragraphs, so the tag cannot tell them apart).
 * 2. Teaser runs: three or more sibling boxes of one tag and class, each short and each with a
 *    link (mostly link text, or an image beside it): a related-story or most-popular list.
 * 3. Repeats: a short text shown three or more times (a box drawn once per screen size, a
 *    slideshow's repeated label).
 *
 * Each is one pass over elements whose text sizes the caller has measured.
 */
import type { Element } from "domhandler";
import { BLOCKS } from "../../shared/net/blocks.ts";
import { descendants, innerText, innerTextLength, isElement, isTextNode } from "./dom.ts";

/** A media box's text is at most this long (a long caption with its credit). */
const CAPTION_MAX = 400;
/** Images at most this many pixels wide or high are icons, not pictures. */
const ICON_MAX = 40;
/** A teaser box's text is at most this long (a headline and a line of summary). */
const TEASER_MAX = 300;
/** Teaser runs and repeats are at least this many boxes long. */
const MIN_RUN = 3;
/** A teaser box without an image is mostly link: at least this share of its text. */
const TEASER_LINK_SHARE = 0.3;
/** A repeated text is at most this long. */
const REPEAT_MAX = 80;
/** What one rule removes holds under this share of the article's text (else it removes nothing). */
const MAX_SHARE = 0.5;

const IMAGES = new Set(["img", "picture"]);
const LINKS = new Set(["a"]);

/**
 * The boxes of `article` that are not the story. `all` is every element under it in document
 * order, `size` each element's text length, `total` the article's, `blockInside` the elements
 * that hold a block. Linear in the elements (times the depth), awaiting `yieldSoon` every 256
 * steps.
 */
export async function structuralBoxes(
  article: Element,
  all: readonly Element[],
  size: ReadonlyMap<Element, number>,
  total: number,
  blockInside: ReadonlySet<Element>,
  yieldSoon: () => Promise<void>,
): Promise<Set<Element>> {
  const len = (el: Element) => size.get(el) ?? 0;
  const out = new Set<Element>();
  let steps = 0; // every pass awaits yieldSoon every 256 steps
  // Each rule's boxes are kept only when together they hold under MAX_SHARE of the text.
  const add = async (found: Set<Element>) => {
    let n = 0;
    for (const el of found) {
      if ((++steps & 255) === 0) await yieldSoon();
      if (!hasAncestorIn(el, found)) n += len(el);
    }
    if (n < total * MAX_SHARE) { for (const el of found) out.add(el); }
  };
  const parents = [article, ...all];
  // Elements with text before them in their parent, in one pass over every parent.
  const afterText = new Set<Element>();
  for (let i = 0; i < parents.length; i++) {
    const parent = parents[i];
    if ((++steps & 255) === 0) await yieldSoon();
    let seen = false;
    for (let j = 0; j < parent.children.length; j++) {
      const c = parent.children[j];
      if ((++steps & 255) === 0) await yieldSoon();
      if (isElement(c)) {
        if (seen) afterText.add(c);
        else if (len(c) > 0) seen = true;
      } else if (isTextNode(c) && c.data.trim() !== "") seen = true;
    }
  }
  const inSentence = (img: Element) => {
    for (let node: Element | null = img; node && !BLOCKS.has(node.name); node = parentOf(node)) {
      if (afterText.has(node)) return true;
    }
    return false;
  };
  const isBlock = (el: Element) => BLOCKS.has(el.name) || blockInside.has(el);
  const media = new Set<Element>();
  const boxOf = new Map<Element, Element>(); // a climb's every step to its top: images share climbs
  for (const el of all) {
    if ((++steps & 255) === 0) await yieldSoon();
    if (!IMAGES.has(el.name) || isIcon(el) || inSentence(el)) continue;
    let box: Element = el;
    const path: Element[] = [];
    for (
      let up = parentOf(box);
      up && up !== article && len(up) <= CAPTION_MAX;
      up = parentOf(up)
    ) {
      const known = boxOf.get(up);
      if (known) {
        box = known;
        break;
      }
      path.push(up);
      box = up;
    }
    for (const step of path) boxOf.set(step, box);
    if (box !== el && len(box) > 0 && isBlock(box)) media.add(box);
  }
  await add(media);
  const teasers = new Set<Element>();
  for (let i = 0; i < parents.length; i++) {
    const parent = parents[i];
    if ((++steps & 255) === 0) await yieldSoon();
    const groups = new Map<string, Element[]>();
    for (let j = 0; j < parent.children.length; j++) {
      const c = parent.children[j];
      if ((++steps & 255) === 0) await yieldSoon();
      if (!isElement(c) || c.name === "p" || !c.attribs.class) continue;
      const key = `${c.name} ${c.attribs.class.trim()}`;
      const g = groups.get(key);
      if (g) g.push(c);
      else groups.set(key, [c]);
    }
    for (const g of groups.values()) {
      if (g.length < MIN_RUN) continue;
      let every = true;
      for (const c of g) {
        if ((++steps & 255) === 0) await yieldSoon();
        if (!isTeaser(c, len(c))) {
          every = false;
          break;
        }
      }
      if (every) { for (const c of g) teasers.add(c); }
    }
  }
  await add(teasers);
  const byText = new Map<string, Element[]>();
  for (const el of all) {
    if ((++steps & 255) === 0) await yieldSoon();
    const n = len(el);
    if (
      n === 0 || n > REPEAT_MAX || !BLOCKS.has(el.name) ||
      el.children.some((c) => isElement(c) && BLOCKS.has(c.name) && len(c) === n)
    ) {
      continue; // the innermost element of a text only
    }
    const t = innerText(el);
    const g = byText.get(t);
    if (g) g.push(el);
    else byText.set(t, [el]);
  }
  const repeats = new Set<Element>();
  for (const g of byText.values()) if (g.length >= MIN_RUN) { for (const el of g) repeats.add(el); }
  await add(repeats);
  return out;
}

function isTeaser(box: Element, n: number): boolean {
  if (n === 0 || n > TEASER_MAX) return false;
  const links = descendants(box, LINKS);
  if (links.length === 0) return false;
  if (descendants(box, IMAGES).length > 0) return true;
  let linked = 0;
  for (const a of links) linked += innerTextLength(a);
  return linked >= n * TEASER_LINK_SHARE;
}

/** An icon or emoji: an image drawn at most ICON_MAX pixels wide or high. */
function isIcon(img: Element): boolean {
  const w = Number(img.attribs.width), h = Number(img.attribs.height);
  return (w > 0 && w <= ICON_MAX) || (h > 0 && h <= ICON_MAX);
}

function parentOf(el: Element): Element | null {
  return isElement(el.parent) ? el.parent : null;
}

function hasAncestorIn(el: Element, set: ReadonlySet<Element>): boolean {
  for (let up = parentOf(el); up; up = parentOf(up)) if (set.has(up)) return true;
  return false;
}
