/**
 * Reading a large object back, and what the S3 deadlines cost on the way, in the same run
 * against the same s3rver (a child process, bench/fixtures/s3rver.ts):
 * - `GET /object` through the service (functions/object-storage/main.ts, a child process, S3
 *   adapter with its deadlines) versus a bare pass-through (bench/fixtures/s3_passthrough.ts, a
 *   child process: `Deno.serve` answering the SDK's GetObject body as it comes). The target is
 *   on this row: both pay for the same extra HTTP hop, which on a shared 2-core machine (store,
 *   server and reader all busy) costs what no service code can win back;
 * - the pass-through versus `GetObject` with the raw SDK from this process: what the hop costs;
 * - in this process, the same `GetObject` body read plain versus through the per-read idle
 *   deadline the adapter puts on it (shared/bindings/bucket/s3_deadline.ts `idleLimit`), which
 *   isolates the deadline's own cost from the HTTP hop. In the service it costs more than this:
 *   the pass-through hands Deno.serve the `fetch` body, which it pipes natively, while any
 *   JavaScript stream in between (the deadline's) makes the server pass each chunk through JS.
 * Best of `BENCH_ROUNDS` (default 3, 1 with `BENCH_QUICK=1`) alternating rounds; size
 * `BENCH_DOWNLOAD_MB` (default 256, 64 with `BENCH_QUICK=1`).
 */
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { MIN_PART_SIZE, QUEUE_SIZE } from "../shared/bindings/bucket/s3.ts";
import { idleLimit } from "../shared/bindings/bucket/s3_deadline.ts";
import { uploadStream } from "../shared/bindings/bucket/s3_upload.ts";
import { BUCKETS, randomMiB, repeated, type S3Bench, startS3Bench } from "./fixtures/s3rver.ts";
import { S3RVER_CREDENTIALS } from "../tests/support/s3rver.ts";
import {
  type BenchRow,
  type ChildServer,
  envCount,
  formatNotes,
  formatTable,
  QUICK,
  spawnServer,
} from "./harness.ts";

const MiB = 1024 * 1024;
const KEY = "download.bin";
const SERVICE_TARGET = 0.8;
const DEADLINE_TARGET = 0.9;

/** Reads a stream to its end; the bytes read. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let total = 0;
  for await (const chunk of stream) total += chunk.byteLength;
  return total;
}

/** Runs the benchmark (s3rver and the service as child processes on 127.0.0.1). */
export async function run(): Promise<BenchRow[]> {
  const mib = envCount("BENCH_DOWNLOAD_MB", QUICK ? 64 : 256);
  const rounds = envCount("BENCH_ROUNDS", QUICK ? 1 : 3);
  let bench: S3Bench | undefined;
  let passthrough: ChildServer | undefined;
  try {
    bench = await startS3Bench();
    const { sdk } = bench;
    const origin = bench.service.origin;
    passthrough = await spawnServer(["run", "-A", "bench/fixtures/s3_passthrough.ts"], {
      S3_ENDPOINT: bench.store.origin,
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      BUCKET: BUCKETS.service,
    });
    const hop = passthrough.origin;
    await uploadStream(repeated(randomMiB(), mib), {
      client: sdk,
      bucket: BUCKETS.service,
      key: KEY,
      contentType: "application/octet-stream",
      partSize: MIN_PART_SIZE,
      queueSize: QUEUE_SIZE,
      maxParts: 10_000,
    });

    const getBody = async () => {
      const out = await sdk.send(new GetObjectCommand({ Bucket: BUCKETS.service, Key: KEY }));
      return out.Body!.transformToWebStream() as ReadableStream<Uint8Array>;
    };
    const download = async (url: string) => {
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
      return drain(res.body!);
    };
    const paths = {
      service: () => download(`${origin}/object?key=${KEY}`),
      passthrough: () => download(`${hop}/?key=${KEY}`),
      sdk: async () => drain(await getBody()),
      deadline: async () => drain(idleLimit(await getBody(), 10_000, "GetObject body")),
    };
    type PathName = keyof typeof paths;
    const rates: Record<PathName, number[]> = {
      service: [],
      passthrough: [],
      sdk: [],
      deadline: [],
    };
    const order = Object.keys(paths) as PathName[];
    for (const name of order) await paths[name](); // warm-up: modules, connections
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 ? [...order].reverse() : order) {
        const started = performance.now();
        const bytes = await paths[name]();
        if (bytes !== mib * MiB) throw new Error(`${name} read ${bytes} bytes`);
        rates[name].push(mib / ((performance.now() - started) / 1000));
      }
    }
    const best = (name: PathName) => Math.max(...rates[name]);
    const spread = (name: PathName) => rates[name].map((r) => r.toFixed(0)).join("/");
    const common = `${mib} MiB, best of ${rounds} alternating rounds; s3rver in its own process`;
    const ratio = (a: PathName, b: PathName) => best(a) / best(b);
    return [
      {
        measure: `download ${mib} MiB through the service (GET /object) vs a bare pass-through`,
        unit: "MiB/s",
        project: best("service"),
        baseline: best("passthrough"),
        ratio: ratio("service", "passthrough"),
        target: `>= ${SERVICE_TARGET}x`,
        pass: ratio("service", "passthrough") >= SERVICE_TARGET,
        note: `${common}; both child processes on the same client settings; service ${
          spread("service")
        }, pass-through ${spread("passthrough")} MiB/s per round`,
      },
      {
        measure: `download ${mib} MiB through a bare pass-through vs raw SDK GetObject (the hop)`,
        unit: "MiB/s",
        project: best("passthrough"),
        baseline: best("sdk"),
        ratio: ratio("passthrough", "sdk"),
        target: "info",
        pass: true,
        note: `${common}; service vs raw SDK ${ratio("service", "sdk").toFixed(2)}x; SDK ${
          spread("sdk")
        } MiB/s per round`,
      },
      {
        measure: `read a ${mib} MiB GetObject body with the per-read S3 deadline vs without`,
        unit: "MiB/s",
        project: best("deadline"),
        baseline: best("sdk"),
        ratio: best("deadline") / best("sdk"),
        target: `>= ${DEADLINE_TARGET}x`,
        pass: best("deadline") / best("sdk") >= DEADLINE_TARGET,
        note: `${common}; both in this process on one client; with deadline ${
          spread("deadline")
        } MiB/s per round`,
      },
    ];
  } finally {
    await passthrough?.stop();
    await bench?.stop();
  }
}

if (import.meta.main) {
  const rows = await run();
  console.log(formatTable(rows));
  console.log(formatNotes(rows));
}
