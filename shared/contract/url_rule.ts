/** The contract's URL input rule, used wherever a `url` input is accepted. */

/**
 * Applies the URL input rule: missing or empty, not an absolute URL, or a scheme other
 * than `http:`/`https:` is invalid (`null`); otherwise the normalised string form.
 * A URL without a host (`http://`) does not parse and is invalid too.
 */
export function parseUrlInput(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname) return null;
  return url.href;
}
