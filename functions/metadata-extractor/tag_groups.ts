/**
 * The raw tag families of a result: every Open Graph tag and every Twitter tag, keyed by
 * property, with URL-valued properties made absolute; and the Open Graph images grouped with
 * the `og:image:*` properties that follow each of them (as the protocol defines).
 */
import { resolveUrl } from "../../shared/net/html.ts";
import type { TagGroup } from "./schema.ts";

/** Properties whose value is always a URL. */
export const URL_PROPERTIES = new Set([
  "og:url",
  "og:image",
  "og:image:url",
  "og:image:secure_url",
  "og:video",
  "og:video:url",
  "og:video:secure_url",
  "og:audio",
  "og:audio:url",
  "og:audio:secure_url",
  "twitter:url",
  "twitter:image",
  "twitter:image:src",
  "twitter:player",
  "twitter:player:stream",
]);

/**
 * Profile properties: the protocol says URL, pages often write a name. Resolved only when the
 * value looks like a URL, so "Ada Quinn" stays a name.
 */
export const PROFILE_PROPERTIES = new Set([
  "og:see_also",
  "article:author",
  "book:author",
  "music:musician",
  "music:creator",
  "video:actor",
  "video:director",
  "video:writer",
]);

/** True for a value written as a URL: a scheme, `//`, `/`, `./` or `../` in front. */
export function looksLikeUrl(value: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/|\.\.?\/)/i.test(value);
}

/** A tag value as it belongs in a result: URL-valued properties absolute. */
export function tagValue(key: string, value: string, base: string): string {
  if (URL_PROPERTIES.has(key) || (PROFILE_PROPERTIES.has(key) && looksLikeUrl(value))) {
    return resolveUrl(value, base) ?? value;
  }
  return value;
}

/**
 * The tags of one family, Twitter's or Open Graph's (`ordered` holds only those two), a
 * repeated key listing its values in order.
 */
function tagGroup(ordered: [string, string][], twitter: boolean, base: string): TagGroup {
  const group: TagGroup = {};
  for (const [key, raw] of ordered) {
    if (key.startsWith("twitter:") !== twitter) continue;
    const value = tagValue(key, raw, base);
    const seen = group[key];
    if (seen === undefined) group[key] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else group[key] = [seen, value];
  }
  return group;
}

/** Every og:* and Open Graph object-type tag. */
export function openGraphGroup(ordered: [string, string][], base: string): TagGroup {
  return tagGroup(ordered, false, base);
}

/** Every twitter:* tag. */
export function twitterGroup(ordered: [string, string][], base: string): TagGroup {
  return tagGroup(ordered, true, base);
}

/** One `og:image` with the structured properties that follow it. */
export interface OgImage {
  url: string | null;
  secureUrl: string | null;
  width: string | null;
  height: string | null;
  alt: string | null;
}

/**
 * Groups `og:image` tags: each `og:image` (or an `og:image:url` after a complete image) starts
 * a new image, and `og:image:width` / `:height` / `:alt` / `:secure_url` describe the latest.
 */
export function ogImages(ordered: [string, string][]): OgImage[] {
  const images: OgImage[] = [];
  let current: OgImage | null = null;
  const start = (url: string | null) => {
    current = { url, secureUrl: null, width: null, height: null, alt: null };
    images.push(current);
    return current;
  };
  for (const [key, value] of ordered) {
    if (!key.startsWith("og:image")) continue;
    if (key === "og:image") {
      start(value);
      continue;
    }
    // A structured property before any og:image describes an image whose URL may follow.
    const image: OgImage = current ?? start(null);
    switch (key) {
      case "og:image:url":
        if (image.url === null) image.url = value;
        else start(value);
        break;
      case "og:image:secure_url":
        image.secureUrl ??= value;
        break;
      case "og:image:width":
        image.width ??= value;
        break;
      case "og:image:height":
        image.height ??= value;
        break;
      case "og:image:alt":
        image.alt ??= value;
        break;
    }
  }
  return images;
}
