/** Creating links: a custom code claimed through the unique index, or a generated one. */
import { ApiError } from "../../shared/contract/errors.ts";
import { randomCode } from "./codes.ts";
import type { LinkRecord } from "./link.ts";
import { hashManageToken, newManageToken } from "./manage_token.ts";
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

/** The new link and its manage token (shown this once; only its hash is stored). */
export interface ShortenOutcome {
  link: LinkRecord;
  manageToken: string;
}

/**
 * Stores a new link with a new manage token. A custom code is inserted and the unique index
 * says whether it was free (no check-then-insert race); without one, random codes are drawn
 * until one inserts. Every call makes its own link: a link has an owner who may re-point or
 * delete it, so it is never handed to another poster of the same URL.
 */
export async function shorten(
  store: LinkStore,
  input: ShortenInput,
  generate: () => string = randomCode,
): Promise<ShortenOutcome> {
  const expiresAt = input.expiresAt ?? null;
  const createdAt = new Date().toISOString();
  const manageToken = newManageToken();
  const hash = await hashManageToken(manageToken);
  if (input.code) {
    const link = { code: input.code, url: input.url, createdAt, expiresAt };
    if (await store.insert(link, true, hash) === "conflict") {
      throw new ApiError("INVALID_INPUT", SHORTEN_MESSAGES.taken);
    }
    return { link, manageToken };
  }
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const link = { code: generate(), url: input.url, createdAt, expiresAt };
    if (await store.insert(link, false, hash) === "inserted") return { link, manageToken };
  }
  throw new ApiError("INTERNAL_ERROR", "Could not allocate a free code");
}
