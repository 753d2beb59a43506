/** Page signals for the detection engine's tests: an empty page of https://x.test/ and what differs. */
import type { PageSignals } from "../../functions/dependency-analyzer/tech_detect.ts";

/** The signals of an empty page at https://x.test/, with `overrides`. */
export function pageSignals(overrides: Partial<PageSignals> = {}): PageSignals {
  return {
    url: "https://x.test/",
    html: "",
    scriptSrc: [],
    scripts: [],
    css: [],
    meta: new Map(),
    headers: new Map(),
    cookies: new Map(),
    ...overrides,
  };
}
