/**
 * What the page's `<link>` tags say: its icons and the best favicon, its feeds, its oEmbed
 * endpoint and its language alternates. All URLs resolved against the document base.
 */
import { resolveUrl } from "../../shared/net/html.ts";
import type { Alternate, Feed, Icon, OEmbed } from "./schema.ts";
import type { LinkTag } from "./signals.ts";

/** rel tokens that make a link an icon. */
export const ICON_RELS = new Set([
  "icon",
  "apple-touch-icon",
  "apple-touch-icon-precomposed",
  "mask-icon",
  "fluid-icon",
]);

/** Feed media types and their format. */
export const FEED_TYPES: Record<string, Feed["format"]> = {
  "application/rss+xml": "rss",
  "application/atom+xml": "atom",
  "application/feed+json": "json",
};

/** oEmbed discovery types and their format. */
export const OEMBED_TYPES: Record<string, OEmbed["format"]> = {
  "application/json+oembed": "json",
  "text/xml+oembed": "xml",
  "application/xml+oembed": "xml",
};

/** Every icon link, in document order. */
export function icons(links: LinkTag[], base: string): Icon[] {
  const out: Icon[] = [];
  for (const l of links) {
    if (!l.rel.some((r) => ICON_RELS.has(r))) continue;
    const url = resolveUrl(l.href, base);
    if (url) out.push({ url, rel: l.rel.join(" "), sizes: l.sizes, type: l.type });
  }
  return out;
}

/** The largest side declared in `sizes` ("32x32 16x16" → 32); 0 for none or `any`. */
export function declaredSize(sizes: string | null): number {
  if (!sizes) return 0;
  let best = 0;
  const size = /(\d+)\s*[xX]\s*(\d+)/g;
  for (let m = size.exec(sizes); m; m = size.exec(sizes)) {
    best = Math.max(best, Number(m[1]), Number(m[2]));
  }
  return best;
}

function isSvg(icon: Icon): boolean {
  return icon.type === "image/svg+xml" || /\.svg(?:$|[?#])/i.test(icon.url);
}

/**
 * The favicon a preview shows next to the title. Raster first, since every client renders
 * it: among `rel=icon` links the largest declared raster size, else an SVG icon, else the
 * first `rel=icon`, else the largest apple-touch-icon, else `/favicon.ico` at the origin
 * (where browsers look when nothing is declared). One pass over the icons.
 */
export function bestFavicon(list: Icon[], finalUrl: string): string {
  let raster: Icon | undefined, rasterSize = 0; // the first of the largest sized rasters
  let svg: Icon | undefined, firstPlain: Icon | undefined;
  let apple: Icon | undefined, appleSize = 0; // the first of the largest apple-touch-icons
  for (const icon of list) {
    const size = declaredSize(icon.sizes);
    if (icon.rel.split(" ").includes("icon")) {
      firstPlain ??= icon;
      if (isSvg(icon)) svg ??= icon;
      else if (size > rasterSize) [raster, rasterSize] = [icon, size];
    }
    if (icon.rel.startsWith("apple-touch-icon") && (!apple || size > appleSize)) {
      [apple, appleSize] = [icon, size];
    }
  }
  const pick = raster ?? svg ?? firstPlain ?? apple;
  return pick?.url ?? new URL("/favicon.ico", finalUrl).href;
}

/** RSS, Atom and JSON Feed links. */
export function feeds(links: LinkTag[], base: string): Feed[] {
  const out: Feed[] = [];
  for (const l of links) {
    const format = l.type ? FEED_TYPES[l.type] : undefined;
    if (!format || !(l.rel.includes("alternate") || l.rel.includes("feed"))) continue;
    const url = resolveUrl(l.href, base);
    if (url) out.push({ url, format, type: l.type!, title: l.title });
  }
  return out;
}

/** The oEmbed endpoint: the first JSON one, else the first XML one. */
export function oembed(links: LinkTag[], base: string): OEmbed | null {
  let xml: OEmbed | null = null;
  for (const l of links) {
    const format = l.type ? OEMBED_TYPES[l.type] : undefined;
    if (!format) continue;
    const url = resolveUrl(l.href, base);
    if (!url) continue;
    if (format === "json") return { url, format, title: l.title };
    xml ??= { url, format, title: l.title };
  }
  return xml;
}

/** Language alternates: `<link rel=alternate hreflang>`. */
export function alternates(links: LinkTag[], base: string): Alternate[] {
  const out: Alternate[] = [];
  for (const l of links) {
    if (!l.hreflang || !l.rel.includes("alternate")) continue;
    const url = resolveUrl(l.href, base);
    if (url) out.push({ hreflang: l.hreflang, url });
  }
  return out;
}
