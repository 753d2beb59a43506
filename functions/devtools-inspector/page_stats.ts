/** Statistics of an HTML page: what the Elements panel would let you count by hand. */
import {
  type AnyNode,
  attr,
  collapse,
  type Document,
  select,
  selectFirst,
  walk,
} from "../../shared/net/html.ts";
import { isTag, isText } from "domhandler";
import type { PageStats } from "./schema.ts";
import { runsAsScript } from "./script_kind.ts";

const utf8 = new TextEncoder();

/** The doctype's name and identifiers (`html`, or `html PUBLIC "..." "..."`); null when absent. */
export function doctypeOf(doc: Document): string | null {
  for (const node of doc.children) {
    if (node.type === "directive" && /^!doctype/i.test(node.name)) {
      const text = collapse(node.data.replace(/^!doctype/i, ""));
      return text || "html";
    }
  }
  return null;
}

/** Raw text inside an element (a script's or style's source), entity-free as parsed. */
function rawText(node: AnyNode): string {
  const parts: string[] = [];
  walk(node, (n) => {
    if (isText(n)) parts.push(n.data);
  });
  return parts.join("");
}

/** Counts every element under the document (an iterative walk: any depth is safe). */
function countElements(nodes: readonly AnyNode[]): number {
  let n = 0;
  for (const root of nodes) {
    walk(root, (node) => {
      if (isTag(node)) n++;
    });
  }
  return n;
}

/** Statistics of a parsed page of `bytes` decoded bytes, decoded with `charset`. */
export function pageStats(doc: Document, bytes: number, charset: string): PageStats {
  // Data blocks (JSON-LD, import maps, templates) are not scripts: the browser never runs them.
  const scripts = select(doc, "script").filter(runsAsScript);
  const inline = scripts.filter((s) => attr(s, "src") === null);
  const styles = select(doc, "style");
  const images = select(doc, "img");
  const titleEl = selectFirst(doc, "title");
  const title = titleEl ? collapse(rawText(titleEl)) : "";
  return {
    bytes,
    doctype: doctypeOf(doc),
    title: title || null,
    lang: attr(selectFirst(doc, "html"), "lang"),
    charset,
    elements: countElements(doc.children),
    scripts: scripts.length,
    externalScripts: scripts.length - inline.length,
    inlineScripts: inline.length,
    stylesheets:
      select(doc, "link[rel]").filter((l) =>
        (attr(l, "rel") ?? "").toLowerCase().split(/\s+/).includes("stylesheet")
      ).length,
    inlineStyles: styles.length,
    images: images.length,
    // alt="" is a decorative image done right; only a missing attribute is a finding.
    imagesWithoutAlt: images.filter((i) => !("alt" in i.attribs)).length,
    links: select(doc, "a[href], area[href]").length,
    forms: select(doc, "form").length,
    iframes: select(doc, "iframe").length,
    inlineScriptBytes: inline.reduce((sum, s) => sum + utf8.encode(rawText(s)).length, 0),
    inlineStyleBytes: styles.reduce((sum, s) => sum + utf8.encode(rawText(s)).length, 0),
  };
}
