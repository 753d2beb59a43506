/**
 * Loading a module on first use. Route code (HTML analysis, puppeteer-core, the AWS SDK…) is
 * imported by the first request that needs it rather than at start-up, where it would cost every
 * cold start (bench/cold_start.ts); deno.json's `lazy-dynamic-imports` keeps `deno run` from
 * preloading it. Keep the `import("…")` literal inside `load` so bundlers still see it.
 */

/** A loader that runs `load` once, on its first call, and shares the result with every caller. */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => loaded ??= load();
}
