/**
 * Import maps (`{"imports": {...}, "scopes": {...}}`), inline in a page or as a JSON file:
 * the flat list of mappings with every URL made absolute against the map's base URL.
 */
import { resolveUrl } from "../../shared/net/html.ts";

/** One mapping, before host classification. */
export interface RawImportMapEntry {
  /** The key as written. */
  specifier: string;
  /** The target as written. */
  target: string;
  /** Absolute target URL (null when it cannot be resolved). */
  url: string | null;
  /** Absolute scope URL; null for top-level `imports`. */
  scope: string | null;
}

/**
 * An import-map target as the browser resolves it: an absolute URL, or a URL-like string
 * (`/`, `./`, `../`) against the base. A bare target (`"lodash"`) is invalid: null.
 */
export function resolveTarget(target: string, base: string): string | null {
  const t = target.trim();
  if (/^(?:\/|\.\/|\.\.\/)/.test(t)) return resolveUrl(t, base);
  return URL.canParse(t) ? new URL(t).href : null;
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Lists the mappings of an import map, `imports` first then each scope in order. Targets
 * that are not strings are skipped (browsers ignore them too); `warn` hears about them.
 */
export function importMapEntries(
  map: unknown,
  base: string,
  warn: (message: string) => void = () => {},
): RawImportMapEntry[] {
  if (!isObject(map)) {
    warn("Import map is not a JSON object");
    return [];
  }
  const out: RawImportMapEntry[] = [];
  const addAll = (imports: unknown, scope: string | null) => {
    if (imports === undefined) return;
    if (!isObject(imports)) {
      warn(`Import map ${scope ? `scope ${scope}` : "imports"} is not an object`);
      return;
    }
    for (const [specifier, target] of Object.entries(imports)) {
      if (typeof target !== "string") {
        warn(`Import map entry "${specifier}" has a non-string target`);
        continue;
      }
      out.push({ specifier, target, url: resolveTarget(target, base), scope });
    }
  };
  addAll(map.imports, null);
  if (map.scopes !== undefined) {
    if (!isObject(map.scopes)) warn("Import map scopes is not an object");
    else {
      for (const [scope, imports] of Object.entries(map.scopes)) {
        addAll(imports, resolveUrl(scope, base) ?? scope);
      }
    }
  }
  return out;
}
