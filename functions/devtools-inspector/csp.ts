/**
 * Content-Security-Policy: parsing (header and `<meta http-equiv>`) and the HTTP Observatory's
 * reading of a policy (unsafe-inline, unsafe-eval, broad or insecure sources, default-src 'none').
 */

/** One policy: directive → its source list (lowercased), in the order written. */
export type CspPolicy = Map<string, string[]>;

/** Directives of CSP Level 3 (and a few deprecated ones browsers still parse). */
const KNOWN_DIRECTIVES = new Set([
  "default-src",
  "script-src",
  "script-src-elem",
  "script-src-attr",
  "style-src",
  "style-src-elem",
  "style-src-attr",
  "img-src",
  "connect-src",
  "font-src",
  "object-src",
  "media-src",
  "frame-src",
  "child-src",
  "worker-src",
  "manifest-src",
  "prefetch-src",
  "fenced-frame-src",
  "base-uri",
  "form-action",
  "frame-ancestors",
  "navigate-to",
  "sandbox",
  "report-uri",
  "report-to",
  "upgrade-insecure-requests",
  "block-all-mixed-content",
  "require-trusted-types-for",
  "trusted-types",
  "require-sri-for",
  "plugin-types",
  "webrtc",
]);

/** Directives a `<meta>` policy may not carry (CSP3 §3.3): browsers drop them there. */
const HEADER_ONLY = new Set(["frame-ancestors", "report-uri", "sandbox"]);

/** Sources that allow (nearly) anything. */
export const DANGEROUSLY_BROAD: ReadonlySet<string> = new Set([
  "ftp:",
  "http:",
  "https:",
  "*",
  "http://*",
  "http://*.*",
  "https://*",
  "https://*.*",
]);

/** Sources that let inline code run. */
const UNSAFE_INLINE = new Set(["'unsafe-inline'", "data:"]);

/** Directives whose values are not sources (so `http:` there is no insecure load). */
const NOT_SOURCES = new Set(["report-uri", "report-to", "sandbox", "trusted-types", "webrtc"]);

/** Directives of passive content (a downgrade there is the lesser evil). */
const PASSIVE = new Set(["img-src", "media-src"]);

/** The result of parsing a list of serialized policies. */
export interface ParsedCsp {
  policies: CspPolicy[];
  /** Policies that could not be read, as sent. */
  invalid: string[];
}

/** Directives that may repeat without making the policy invalid (the first one counts). */
const MAY_REPEAT = new Set(["report-uri", "report-to"]);

/**
 * Parses header (or meta) values: each value may hold several comma-separated policies.
 * A policy is invalid when it has no known directive, a malformed directive name, or a repeated
 * directive (browsers use the first; the Observatory calls it invalid so that people notice).
 * In a `<meta>` policy the header-only directives are dropped, as browsers drop them; a meta
 * policy left with nothing is skipped, not invalid. An empty source list means `'none'`.
 */
export function parseCsp(values: readonly string[], fromMeta = false): ParsedCsp {
  const policies: CspPolicy[] = [];
  const invalid: string[] = [];
  for (const serialized of values.flatMap((v) => v.split(","))) {
    const text = serialized.trim();
    if (!text) continue;
    const policy: CspPolicy = new Map();
    let malformed = false;
    let dropped = 0;
    for (const directive of text.split(";")) {
      const [rawName, ...sources] = directive.trim().split(/\s+/);
      if (!rawName) continue;
      const name = rawName.toLowerCase();
      if (!/^[a-z0-9-]+$/.test(name)) malformed = true;
      else if (policy.has(name)) malformed ||= !MAY_REPEAT.has(name);
      else if (fromMeta && HEADER_ONLY.has(name)) dropped++;
      else if (KNOWN_DIRECTIVES.has(name)) {
        const list = sources.map((s) => s.toLowerCase());
        policy.set(name, list.length === 0 && name.endsWith("-src") ? ["'none'"] : list);
      }
    }
    if (malformed || (policy.size === 0 && dropped === 0)) invalid.push(text.slice(0, 200));
    else if (policy.size > 0) policies.push(policy);
  }
  return { policies, invalid };
}

/** How the Observatory reads one policy. */
export type CspReading =
  | "csp-implemented-with-no-unsafe-default-src-none"
  | "csp-implemented-with-no-unsafe"
  | "csp-implemented-with-unsafe-inline-in-style-src-only"
  | "csp-implemented-with-insecure-scheme-in-passive-content-only"
  | "csp-implemented-with-unsafe-eval"
  | "csp-implemented-with-unsafe-inline"
  | "csp-implemented-with-insecure-scheme"
  | "csp-header-invalid";

const isNonceOrHash = (s: string) => /^'(?:nonce|sha256|sha384|sha512)-/.test(s);

/**
 * Reads one policy as the HTTP Observatory does: the first problem in the order below decides
 * the result; `evidence` lists every problem found, in words.
 */
export function readPolicy(
  policy: CspPolicy,
  https: boolean,
): { result: CspReading; evidence: string[] } {
  const evidence: string[] = [];
  const found: CspReading[] = [];
  const note = (result: CspReading, why: string) => {
    found.push(result);
    evidence.push(why);
  };
  const fallback = (name: string) => policy.get(name) ?? policy.get("default-src");
  let script = [...(fallback("script-src") ?? ["*"])];
  let style = [...(fallback("style-src") ?? ["*"])];
  const object = fallback("object-src") ?? ["*"];

  // A nonce or hash makes browsers ignore 'unsafe-inline' (it is there for old browsers).
  if (script.some(isNonceOrHash)) script = script.filter((s) => s !== "'unsafe-inline'");
  if (style.some(isNonceOrHash)) style = style.filter((s) => s !== "'unsafe-inline'");
  if (script.includes("'strict-dynamic'")) {
    if (script.some(isNonceOrHash)) {
      // With a nonce or hash, 'strict-dynamic' disables host and scheme sources and 'self'.
      script = script.filter((s) =>
        !([...DANGEROUSLY_BROAD].some((b) => s.startsWith(b)) || s === "'self'")
      );
    } else {
      note("csp-header-invalid", "'strict-dynamic' without a nonce or hash");
    }
  }

  // Name problems after the directive that actually governs (script-src, else default-src).
  const governing = (name: string) =>
    policy.has(name) ? name : policy.has("default-src") ? "default-src" : null;
  const scriptDir = governing("script-src");
  const objectDir = governing("object-src");
  const styleDir = governing("style-src");
  const isUnsafe = (s: string) => DANGEROUSLY_BROAD.has(s) || UNSAFE_INLINE.has(s);
  if (!scriptDir) {
    note(
      "csp-implemented-with-unsafe-inline",
      "scripts are not restricted (no script-src or default-src)",
    );
  }
  for (const s of scriptDir ? script.filter(isUnsafe) : []) {
    note("csp-implemented-with-unsafe-inline", `${scriptDir} allows ${s}`);
  }
  if (!objectDir) {
    note(
      "csp-implemented-with-unsafe-inline",
      "plugins are not restricted (no object-src or default-src)",
    );
  }
  for (const s of objectDir ? object.filter((s) => DANGEROUSLY_BROAD.has(s)) : []) {
    note("csp-implemented-with-unsafe-inline", `${objectDir} allows ${s}`);
  }

  const insecure = (s: string) => s.startsWith("http:") || s.startsWith("ftp:");
  if (https) {
    for (const [name, sources] of policy) {
      if (PASSIVE.has(name) || NOT_SOURCES.has(name) || name === "script-src") continue;
      for (const s of sources.filter(insecure)) {
        note("csp-implemented-with-insecure-scheme", `${name} allows ${s} on an HTTPS page`);
      }
    }
    for (const s of script.filter(insecure)) {
      note(
        "csp-implemented-with-insecure-scheme",
        `${scriptDir ?? "script-src"} allows ${s} on an HTTPS page`,
      );
    }
  }
  if (script.includes("'unsafe-eval'") || style.includes("'unsafe-eval'")) {
    const where = script.includes("'unsafe-eval'") ? scriptDir : styleDir;
    note("csp-implemented-with-unsafe-eval", `${where} allows 'unsafe-eval'`);
  }
  if (https) {
    for (const name of PASSIVE) {
      for (const s of (fallback(name) ?? []).filter(insecure)) {
        note(
          "csp-implemented-with-insecure-scheme-in-passive-content-only",
          `${governing(name)} allows ${s} on an HTTPS page`,
        );
      }
    }
  }
  if (!styleDir) {
    note(
      "csp-implemented-with-unsafe-inline-in-style-src-only",
      "styles are not restricted (no style-src or default-src)",
    );
  }
  for (const s of styleDir ? style.filter(isUnsafe) : []) {
    note("csp-implemented-with-unsafe-inline-in-style-src-only", `${styleDir} allows ${s}`);
  }
  const defaultSrc = policy.get("default-src");
  const noneOnly = defaultSrc?.length === 1 && defaultSrc[0] === "'none'";
  const order: CspReading[] = [
    "csp-header-invalid",
    "csp-implemented-with-unsafe-inline",
    "csp-implemented-with-insecure-scheme",
    "csp-implemented-with-unsafe-eval",
    "csp-implemented-with-insecure-scheme-in-passive-content-only",
    "csp-implemented-with-unsafe-inline-in-style-src-only",
  ];
  const first = order.find((r) => found.includes(r));
  return {
    result: first ??
      (noneOnly
        ? "csp-implemented-with-no-unsafe-default-src-none"
        : "csp-implemented-with-no-unsafe"),
    evidence: [...new Set(evidence)],
  };
}

/** True when a policy's frame-ancestors keeps framing to named origins (not `*` or a scheme). */
export function restrictsFraming(policy: CspPolicy): boolean {
  const ancestors = policy.get("frame-ancestors");
  return ancestors !== undefined && !ancestors.some((s) => DANGEROUSLY_BROAD.has(s));
}

/** Directives without source lists: the combined policy keeps the first policy's value. */
const NOT_LISTS = new Set([
  ...NOT_SOURCES,
  "upgrade-insecure-requests",
  "block-all-mixed-content",
  "require-trusted-types-for",
  "require-sri-for",
  "plugin-types",
]);

/** Fetch directives that fall back to default-src when a policy does not name them. */
const FALLS_BACK = (name: string) => name.endsWith("-src") && name !== "default-src";

const isKeyword = (s: string) => s.startsWith("'");
const schemeOf = (s: string) => s.match(/^([a-z][a-z0-9+.-]*):/)?.[1] ?? null;

/**
 * True when a source list lets through what `source` names, roughly as a browser matches: the
 * same source; a nonce or hash also where 'unsafe-inline' is (without its own nonces); a host
 * also under `*`, its scheme (`https:`) or a matching `*.domain`; `'self'` under a broad source.
 */
function allows(list: readonly string[], source: string): boolean {
  if (list.includes(source)) return true;
  if (/^'(?:nonce|sha256|sha384|sha512)-/.test(source)) {
    return list.includes("'unsafe-inline'") && !list.some(isNonceOrHash);
  }
  if (source === "'self'") return list.some((s) => DANGEROUSLY_BROAD.has(s));
  if (isKeyword(source) || source === "*") return false;
  const scheme = schemeOf(source);
  if (scheme && !source.includes("//") && /^[a-z][a-z0-9+.-]*:$/.test(source)) {
    // A scheme source (data:, blob:, http:): only the same scheme, or https: under http:.
    return source === "https:" && list.includes("http:");
  }
  const host = source.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/[:/].*$/, "");
  const sourceScheme = scheme ?? "https";
  return list.some((s) => {
    if (s === "*") return true;
    if (s === `${sourceScheme}:` || (sourceScheme === "https" && s === "http:")) return true;
    const wild = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/[:/].*$/, "");
    return wild.startsWith("*.") && host.endsWith(wild.slice(1));
  });
}

/**
 * Sources of one directive compared at most when intersecting (each source is checked against
 * the other list: quadratic, and a `<meta>` is strangers' text); real policies have tens.
 */
export const MAX_INTERSECTED_SOURCES = 256;

/** What two source lists both let through; nothing in common is `'none'`. */
function intersectLists(fullA: readonly string[], fullB: readonly string[]): string[] {
  const a = fullA.slice(0, MAX_INTERSECTED_SOURCES);
  const b = fullB.slice(0, MAX_INTERSECTED_SOURCES);
  const out = new Set<string>();
  for (const s of a) if (allows(b, s)) out.add(s);
  for (const s of b) if (allows(a, s)) out.add(s);
  out.delete("'none'");
  return out.size === 0 ? ["'none'"] : [...out];
}

/**
 * The policy in force when several are enforced (a header and a `<meta>`, or several headers):
 * browsers check a load against each and allow it only if every one does (CSP3 §8.1), so each
 * fetch directive of the result is the intersection of what each policy allows for it (a
 * policy without it falling back to its default-src, or allowing everything without that).
 * Directives that are not source lists are kept from the first policy that has them.
 */
export function intersectPolicies(policies: readonly CspPolicy[]): CspPolicy {
  if (policies.length === 1) return new Map(policies[0]);
  const names = new Set(policies.flatMap((p) => [...p.keys()]));
  const out: CspPolicy = new Map();
  for (const name of names) {
    if (NOT_LISTS.has(name)) {
      out.set(name, policies.find((p) => p.has(name))!.get(name)!);
      continue;
    }
    const lists = policies
      .map((p) => p.get(name) ?? (FALLS_BACK(name) ? p.get("default-src") : undefined))
      .filter((l): l is string[] => l !== undefined);
    out.set(name, lists.reduce((a, b) => intersectLists(a, b)));
  }
  // A directive named by no policy but defaulted by some: keep the intersection of defaults.
  return out;
}
