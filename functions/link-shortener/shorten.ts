/** Creating links: a custom code claimed through the unique index, or a generated one. */
import { ApiError } from "../../shared/contract/errors.ts";
import { randomCode } from "./codes.ts";
import type { LinkRecord } from "./link.ts";
import { hashManageToken, newManageToken } from "./manage_token.ts";
import { SHORTEN_MESSAGES } from "./messages.ts";
import type { LinkStore } from "./store.ts";
import { hashPassword } from "./password.ts";
import { applyUtm, type Utm } from "./utm.ts";

/** Draws of a generated code before giving up (a collision needs ~10^6 links to be likely). */
export const MAX_CODE_ATTEMPTS = 8;

/** A validated `POST /shorten` body. */
export interface ShortenInput {
  url: string;
  code?: string | null;
  expiresAt?: string | null;
  password?: string | null;
  maxClicks?: number | null;
  utm?: Utm | null;
}

/** The new link and its manage token (shown this once; only its hash is stored). */
export interface ShortenOutcome {
  link: LinkRecord & LinkOptionsView;
  manageToken: string;
}

/** The options of a link as the API shows them (never the password). */
export interface LinkOptionsView {
  passwordProtected: boolean;
  maxClicks: number | null;
  utm: Utm | null;
}

/** The shown options of a new link made from `input`. */
export function optionsView(input: ShortenInput): LinkOptionsView {
  return {
    passwordProtected: Boolean(input.password),
    maxClicks: input.maxClicks ?? null,
    utm: input.utm ?? null,
  };
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
  const url = input.utm ? applyUtm(input.url, input.utm) : input.url;
  const extras = {
    passwordHash: input.password ? await hashPassword(input.password) : null,
    maxClicks: input.maxClicks ?? null,
    utm: input.utm ?? null,
  };
  const view = optionsView(input);
  if (input.code) {
    const link = { code: input.code, url, createdAt, expiresAt };
    if (await store.insert(link, true, hash, extras) === "conflict") {
      throw new ApiError("INVALID_INPUT", SHORTEN_MESSAGES.taken);
    }
    return { link: { ...link, ...view }, manageToken };
  }
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const link = { code: generate(), url, createdAt, expiresAt };
    if (await store.insert(link, false, hash, extras) === "inserted") {
      return { link: { ...link, ...view }, manageToken };
    }
  }
  throw new ApiError("INTERNAL_ERROR", "Could not allocate a free code");
}
