/** The link-shortener's own input messages and body cap, without zod (the routes read them). */
import { MAX_PASSWORD_LENGTH } from "./password.ts";

/** Messages of the body rules beyond the contract's own. */
export const SHORTEN_MESSAGES = {
  notObject: "Body must be a JSON object",
  code: "code must be 3 to 64 characters of A-Z, a-z, 0-9, _ or -",
  reserved: "code is reserved",
  taken: "Code already in use",
  expiresAt: "expiresAt must be an ISO 8601 date or date-time with a time zone",
  expiresPast: "expiresAt must be in the future",
  selfLink: "url must not point at this link shortener",
  nothingToChange: "Give url, expiresAt and/or utm to change",
  password: `password must be a string of 1 to ${MAX_PASSWORD_LENGTH} characters`,
  maxClicks: "maxClicks must be an integer from 1 to 1000000000",
  qrFormat: "format must be svg or png",
  qrSize: "size must be an integer from 64 to 2048",
  qrMargin: "margin must be an integer from 0 to 16",
  qrEcc: "ecc must be L, M, Q or H",
} as const;

/** Largest accepted body of `POST /shorten` (bytes). */
export const MAX_BODY_BYTES = 8 * 1024;
