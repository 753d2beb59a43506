/**
 * Repeats of the same capture within a minute come from memory: an LRU of finished images
 * bounded in bytes, each entry living as long as the contract's `max-age=60`. Only
 * successful captures are kept; errors are never cached.
 */
import { LRUCache } from "lru-cache";

/** How long an image is served from memory (the contract's `max-age`). */
export const CACHE_TTL_MS = 60_000;

/** One cached image. */
export interface CachedCapture {
  body: Uint8Array;
  contentType: string;
  /** Strong ETag of the bytes (quoted). */
  etag: string;
  /** When it was captured (ms since the epoch). */
  at: number;
}

/**
 * An LRU of captures, at most `maxBytes` of image data, entries expiring after `ttlMs`. The
 * order and the byte bound are `lru-cache`'s (`maxSize`, each entry's size its image bytes);
 * the expiry is checked here against `now`, as shared/bindings/cache.ts's MemoryCache does.
 */
export class CaptureCache {
  readonly #entries: LRUCache<string, CachedCapture> | null;

  constructor(
    /** Image bytes kept at most; 0 turns the cache off. */
    readonly maxBytes: number,
    readonly ttlMs = CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.#entries = maxBytes > 0
      ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (e) => Math.max(1, e.body.length) })
      : null;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#entries?.calculatedSize ?? 0;
  }

  /** The fresh entry for `key` (and it becomes the most recently used), or undefined. */
  get(key: string): CachedCapture | undefined {
    const entry = this.#entries?.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.#entries!.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps an image, evicting the least recently used ones past the byte bound. */
  set(key: string, entry: CachedCapture): void {
    if (!this.#entries) return;
    // Larger than the whole cache: never worth evicting everything for (nor kept stale).
    if (entry.body.length > this.maxBytes) this.#entries.delete(key);
    else this.#entries.set(key, entry);
  }
}

/** A strong ETag for image bytes: the first 128 bits of their SHA-256, base64url. */
export async function etagOf(body: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", body as Uint8Array<ArrayBuffer>),
  );
  const b64 = btoa(String.fromCharCode(...digest.subarray(0, 16)));
  return `"${b64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}"`;
}

/** True when an `If-None-Match` header value matches `etag` (weak comparison, `*` too). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || strip(tag) === strip(etag));
}
