/** Statistics of an HTML page: what the Elements panel would let you count by hand. */
import type { PageScan } from "./page_scan.ts";
import type { PageStats } from "./schema.ts";

/** Statistics of a scanned page of `bytes` decoded bytes, decoded with `charset`. */
export function pageStats(scan: PageScan, bytes: number, charset: string): PageStats {
  return {
    bytes,
    doctype: scan.doctype,
    title: scan.title,
    lang: scan.lang,
    charset,
    elements: scan.elements,
    scripts: scan.scripts,
    externalScripts: scan.scripts - scan.inlineScripts,
    inlineScripts: scan.inlineScripts,
    stylesheets: scan.stylesheets,
    inlineStyles: scan.inlineStyles,
    images: scan.images,
    imagesWithoutAlt: scan.imagesWithoutAlt,
    links: scan.links,
    forms: scan.forms,
    iframes: scan.iframes,
    inlineScriptBytes: scan.inlineScriptBytes,
    inlineStyleBytes: scan.inlineStyleBytes,
  };
}
