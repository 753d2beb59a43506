/**
 * Several instances of one experiment, as the edge runs them: real processes of its main.ts
 * under the edge permissions, each with its own memory, all on the same remote bindings
 * (the Hrana libSQL server, the Upstash fake, s3rver) given in their environment.
 */
import {
  EDGE_PERMISSIONS,
  type RunningEntrypoint,
  startEntrypoint,
} from "../support/entrypoint.ts";

/** Starts `count` instances of `slug` with `env` (each may add its own), in parallel. */
export async function startInstances(
  slug: string,
  count: number,
  env: Record<string, string>,
  own: (i: number) => Record<string, string> = () => ({}),
): Promise<RunningEntrypoint[]> {
  const started = await Promise.allSettled(
    Array.from(
      { length: count },
      (_, i) => startEntrypoint(slug, { ...env, ...own(i) }, EDGE_PERMISSIONS),
    ),
  );
  const up = started.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await stopAll(up);
    throw (failed as PromiseRejectedResult).reason;
  }
  return up;
}

/** Kills every instance still running (SIGKILL) and waits for them. */
export async function stopAll(instances: RunningEntrypoint[]): Promise<void> {
  await Promise.all(instances.map((i) => i.stop()));
}

/**
 * Polls `probe` every `everyMs` until it returns true, for at most `withinMs`: resolves with the
 * time it took; rejects, naming what was last seen, when it never does.
 */
export async function until(
  what: string,
  probe: () => Promise<boolean | string>,
  withinMs: number,
  everyMs = 100,
): Promise<number> {
  const started = performance.now();
  let last: boolean | string = false;
  while (performance.now() - started <= withinMs) {
    last = await probe();
    if (last === true) return performance.now() - started;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not within ${withinMs} ms (last seen: ${last})`);
}

/** `GET <origin>/<code>` without following: the status and `Location`. */
export async function follow(origin: string, code: string): Promise<string> {
  const res = await fetch(`${origin}/${code}`, { redirect: "manual" });
  await res.body?.cancel();
  return res.status === 302 ? res.headers.get("location")! : String(res.status);
}
