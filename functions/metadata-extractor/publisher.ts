/**
 * Publisher names as a reader wants them: the brand, not a note about its past
 * ("X (formerly Twitter)" is "X"). A plain string scan; no regular expression runs on more
 * than a bounded name.
 */
import { collapse } from "../../shared/net/html.ts";

/** Longest publisher name kept: longer is a sentence, not a name. */
export const MAX_PUBLISHER_LENGTH = 120;

/** What a trailing parenthesis says when it names the brand's past, not the brand. */
const FORMERLY = /^(?:formerly|previously|fka|f\/k\/a)\b/i;

/** A publisher name: collapsed, a trailing "(formerly …)" dropped; null when empty or too long. */
export function cleanPublisher(value: string): string | null {
  let v = collapse(value);
  if (v === "" || v.length > MAX_PUBLISHER_LENGTH) return null;
  if (v.endsWith(")")) {
    const open = v.lastIndexOf("(");
    if (open > 0 && FORMERLY.test(v.slice(open + 1, -1).trim())) v = v.slice(0, open).trim();
  }
  return v || null;
}
