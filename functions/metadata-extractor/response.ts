/**
 * What to make of a fetched response: HTML goes to the extractor; images, video, audio, JSON
 * and plain text get an honest result of their kind; anything else (an archive, a PDF, bytes
 * that claim to be HTML but are binary) is 502 PARSE_ERROR rather than a page of garbage.
 */
import { ApiError, isApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { emptyMetadata, extractMetadata } from "./extract.ts";
import { imageSize } from "./image_size.ts";
import { sniffKind } from "../../shared/net/sniff.ts";
import type { PageMetadata } from "./schema.ts";

/**
 * The metadata of any response; throws PARSE_ERROR for what cannot be described. `budgetMs`
 * bounds an HTML page's parse and reading (see `extractMetadata`).
 */
export async function describeResponse(
  page: FetchResult,
  budgetMs?: number,
): Promise<PageMetadata> {
  const kind = sniffKind(page.contentType, page.body, page.charset);
  switch (kind) {
    case "html":
      try {
        return await extractMetadata(page.text, page.finalUrl, budgetMs);
      } catch (err) {
        if (isApiError(err)) throw err; // a parse limit's PARSE_ERROR, with its own message
        // htmlparser2 never throws on markup; this guards the extractor's own assumptions.
        const message = err instanceof Error ? err.message : String(err);
        throw new ApiError("PARSE_ERROR", `Could not extract metadata: ${message}`.slice(0, 300));
      }
    case "image": {
      const size = imageSize(page.body);
      return {
        ...emptyMetadata(page.finalUrl),
        type: "image",
        image: {
          url: page.finalUrl,
          width: size?.width ?? null,
          height: size?.height ?? null,
          alt: null,
        },
      };
    }
    case "binary":
      throw new ApiError(
        "PARSE_ERROR",
        `Not an HTML page: cannot extract metadata from ${
          page.contentType ?? "an untyped"
        } binary body`,
      );
    default:
      return { ...emptyMetadata(page.finalUrl), type: kind };
  }
}
