/** Creating links: a custom code claimed through the unique index, or a generated one. */
import { ApiError } from "../../shared/contract/errors.ts";
import { randomCode } from "./codes.ts";
import type { LinkRecord } from "./link.ts";
import { SHORTEN_MESSAGES } from "./schema.ts";
import type { LinkStore } from "./store.ts";

/** Draws of a generated code before giving up (a collision needs ~10^6 links to be likely). */
export const MAX_CODE_ATTEMPTS = 8;

/** A validated `POST /shorten` body. */
export interface ShortenInput {
  url: string;
  code?: string | null;
  expiresAt?: string | null;
}

/** The link, and whether this request created it (201) or found it (200). */
export interface ShortenOutcome {
  link: LinkRecord;
  created: boolean;
}

/**
 * Stores a link. A custom code is inserted and the unique index says whether it was free
 * (no check-then-insert race). Without one, an existing link with a generated code for the
 * same url and expiry is returned; else random codes are drawn until one inserts. A
 * conflict on a generated insert is either a code collision (draw again) or a concurrent
 * request for the same URL that won (return its link).
 */
export async function shorten(
  store: LinkStore,
  input: ShortenInput,
  generate: () => string = randomCode,
): Promise<ShortenOutcome> {
  const expiresAt = input.expiresAt ?? null;
  const createdAt = new Date().toISOString();
  if (input.code) {
    const link = { code: input.code, url: input.url, createdAt, expiresAt };
    if (await store.insert(link, true) === "conflict") {
      throw new ApiError("INVALID_INPUT", SHORTEN_MESSAGES.taken);
    }
    return { link, created: true };
  }
  const existing = await store.findGenerated(input.url, expiresAt);
  if (existing) return { link: existing, created: false };
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const link = { code: generate(), url: input.url, createdAt, expiresAt };
    if (await store.insert(link, false) === "inserted") return { link, created: true };
    const twin = await store.findGenerated(input.url, expiresAt);
    if (twin) return { link: twin, created: false };
  }
  throw new ApiError("INTERNAL_ERROR", "Could not allocate a free code");
}
