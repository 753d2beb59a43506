/**
 * Cold start of every built bundle, the way an edge isolate starts it: `deno task build`'s
 * `dist/<slug>.js`, copied alone into an empty temp folder (no deno.json, no node_modules),
 * started with `deno run` under the edge permissions (scripts/build.ts EDGE_PERMISSIONS) and
 * remote bindings configured (endpoints on a closed loopback port: nothing may be contacted at
 * start-up), timed from spawn to the first 200 on `GET /`. The baseline is the bare Hono
 * hello-world (bench/fixtures/hono_hello.ts) bundled by the same `deno bundle` and started the
 * same way from the same folder. Pairs alternate order each round, after one warm-up round;
 * figures are medians.
 *
 * The bundles are built for the run into its temp folder (`build()` of scripts/build.ts, the
 * same as `deno task build`). `BENCH_QUICK=1`: fewer rounds. Names on the command line pick
 * experiments: `deno run -A bench/bundle_cold_start.ts link-shortener`.
 */
import {
  type BenchRow,
  cpuSeconds,
  errorRow,
  formatNotes,
  formatTable,
  msToFirst200,
  pairInTurn,
  QUICK,
  type Start,
  startRows,
  stopChild,
} from "./harness.ts";
import { SLUGS } from "../scripts/experiments.ts";
import { build, EDGE_PERMISSIONS } from "../scripts/build.ts";

/** Measured rounds. */
const ROUNDS = QUICK ? 3 : 9;
/** The target: a bundle starts within this multiple of the bundled hello-world's time. */
const TARGET = 1.5;
/** Limit on one start (spawn to first 200). */
const START_TIMEOUT_MS = 30_000;

const ROOT = new URL("../", import.meta.url);
/** A closed port on loopback: a binding that tried to connect at start-up would fail. */
const DOWN = "127.0.0.1:9";

/** Remote bindings per experiment, as deployed (DEPLOY.md), all pointing at DOWN. */
export const REMOTE_ENV: Record<string, Record<string, string>> = {
  "ai-summary": { AI_BASE_URL: `http://${DOWN}/v1` },
  "repo-explainer": {
    AI_BASE_URL: `http://${DOWN}/v1`,
    GITHUB_API_URL: `http://${DOWN}`,
    GITHUB_TOKEN: "bench",
  },
  "screenshot": { BROWSER_WS_ENDPOINT: `ws://${DOWN}/devtools/browser/bench` },
  "link-shortener": {
    DB_URL: `http://${DOWN}`,
    UPSTASH_REDIS_REST_URL: `http://${DOWN}`,
    UPSTASH_REDIS_REST_TOKEN: "bench",
  },
  "object-storage": {
    S3_ENDPOINT: `http://${DOWN}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "bench",
    S3_SECRET_ACCESS_KEY: "bench",
    S3_FORCE_PATH_STYLE: "true",
    BUCKET: "edge-private",
    PUBLIC_BUCKET: "edge-public",
    PUBLIC_BUCKET_URL: `http://${DOWN}/public`,
  },
};

/** One start of one bundle in `dir`, timed from spawn to the first 200 on `GET /`. */
async function startOnce(dir: string, file: string, env: Record<string, string>): Promise<Start> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...EDGE_PERMISSIONS, file],
    cwd: dir,
    env: { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    const ms = await msToFirst200(child, file, started, START_TIMEOUT_MS);
    return { ms, cpuMs: (cpuSeconds(child.pid) ?? NaN) * 1000 };
  } finally {
    await stopChild(child);
  }
}

/** Bundles the hello-world baseline into `dir` with the same `deno bundle` as the build. */
async function bundleBaseline(dir: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform=deno",
      "-o",
      `${dir}/hono_hello.js`,
      "bench/fixtures/hono_hello.ts",
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return "hono_hello.js";
}

/** Measures the bundles of the experiments in `only` (all by default). */
export async function measure(only: readonly string[] = SLUGS): Promise<BenchRow[]> {
  const slugs = SLUGS.filter((s) => only.includes(s));
  const dir = await Deno.makeTempDir({ prefix: "bench_bundle_cold_" });
  const failed = new Map<string, unknown>();
  try {
    const baselineFile = await bundleBaseline(dir);
    await build(slugs, new URL(`file://${dir}/`));
    const envOf = (slug: string) => REMOTE_ENV[slug] ?? {};

    // Warm-up: Deno's caches and the OS page cache, for both sides.
    await startOnce(dir, baselineFile, {});
    for (const slug of slugs) {
      await startOnce(dir, `${slug}.js`, envOf(slug)).catch((err) => failed.set(slug, err));
    }
    const project = slugs.map((): Start[] => []);
    const baseline = slugs.map((): Start[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, slug] of slugs.entries()) {
        if (failed.has(slug)) continue;
        const runBaseline = async () => baseline[i].push(await startOnce(dir, baselineFile, {}));
        const runProject = async () =>
          project[i].push(await startOnce(dir, `${slug}.js`, envOf(slug)));
        try {
          await pairInTurn(round, runBaseline, runProject);
        } catch (err) {
          failed.set(slug, err);
        }
      }
    }
    const note = `median of ${ROUNDS} starts each, each paired with a start of the bundled bare ` +
      `Hono hello-world (order alternating), after a warm-up; bundles alone in an empty ` +
      `folder (no node_modules), remote bindings configured to a closed loopback port`;
    return slugs.flatMap((slug, i): BenchRow[] => {
      const measure = `cold start bundle dist/${slug}.js, edge permissions (spawn → 200 on GET /)`;
      if (failed.has(slug)) return [errorRow(measure, failed.get(slug))];
      return startRows(
        {
          measure,
          cpuMeasure: `CPU time of dist/${slug}.js to its first 200 on GET /`,
          target: TARGET,
          note,
        },
        project[i],
        baseline[i],
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The benchmark's rows (harness contract). */
export function run(): Promise<BenchRow[]> {
  return measure();
}

if (import.meta.main) {
  const rows = await measure(Deno.args.length > 0 ? Deno.args : SLUGS);
  console.log(`${formatTable(rows)}\n\n${formatNotes(rows)}`);
}
