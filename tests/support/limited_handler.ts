/**
 * The page bounds as they were counted before the lean parser counted them itself: a handler
 * wrapping another, refusing a page nested deeper or with more nodes than `limits` as
 * htmlparser2's stock Parser emits events to it. The oracle tests/shared/net/lean_parser_test.ts
 * holds the lean parser's bounds to (same events before the refusal, same error).
 */
import type { Handler, Parser } from "htmlparser2";
import { HtmlLimitError, type ParseLimits, type StreamHandler } from "../../shared/net/html.ts";

/**
 * Forwards the parser's events to `inner`, refusing a page nested deeper or with more nodes
 * than `limits` as the events arrive. Nodes are counted as domhandler builds them (adjacent
 * text is one node), so a streaming pass and a tree are bounded alike.
 */
export class LimitedHandler implements StreamHandler {
  private depth = 0;
  private nodes = 0;
  /** The last node was text (or a comment): more of it extends that node. */
  private inText = false;
  private inComment = false;
  /** Per-attribute and per-tag-name events: a call each, so passed on only when listened to. */
  readonly onattribute?: Handler["onattribute"];
  readonly onopentagname?: Handler["onopentagname"];
  constructor(private readonly inner: StreamHandler, private readonly limits: ParseLimits) {
    if (inner.onattribute) this.onattribute = (...args) => inner.onattribute!(...args);
    if (inner.onopentagname) this.onopentagname = (name) => inner.onopentagname!(name);
  }
  private count(): void {
    this.inText = this.inComment = false;
    if (++this.nodes > this.limits.maxNodes) {
      throw new HtmlLimitError("maxNodes", `Page has more than ${this.limits.maxNodes} nodes`);
    }
  }
  onparserinit(parser: Parser): void {
    this.inner.onparserinit?.(parser);
  }
  onreset(): void {
    this.inner.onreset?.();
  }
  onend(): void {
    this.inner.onend?.();
  }
  onerror(error: Error): void {
    this.inner.onerror?.(error);
  }
  onopentag(name: string, attribs: Record<string, string>, isImplied: boolean): void {
    this.count();
    if (++this.depth > this.limits.maxDepth) {
      throw new HtmlLimitError(
        "maxDepth",
        `Page nests elements deeper than ${this.limits.maxDepth} levels`,
      );
    }
    this.inner.onopentag?.(name, attribs, isImplied);
  }
  onclosetag(name: string, isImplied: boolean): void {
    this.depth--;
    this.inText = this.inComment = false;
    this.inner.onclosetag?.(name, isImplied);
  }
  ontext(data: string): void {
    if (!this.inText) this.count();
    this.inText = true;
    this.inner.ontext?.(data);
  }
  oncomment(data: string): void {
    if (!this.inComment) this.count();
    this.inComment = true;
    this.inner.oncomment?.(data);
  }
  oncommentend(): void {
    this.inComment = false;
    this.inner.oncommentend?.();
  }
  oncdatastart(): void {
    this.count();
    this.inText = true;
    this.inner.oncdatastart?.();
  }
  oncdataend(): void {
    this.inText = false;
    this.inner.oncdataend?.();
  }
  onprocessinginstruction(name: string, data: string): void {
    this.count();
    this.inner.onprocessinginstruction?.(name, data);
  }
}
