/**
 * Uploading a large object through the object-storage service versus straight to the store
 * with the raw SDK, in the same run, against the same s3rver:
 * - project: `PUT /object` to the service (functions/object-storage/main.ts, a child process,
 *   S3 adapter), which streams the body on to s3rver. The client is a plain HTTP/1.1 writer
 *   sending `Content-Length`, as `curl -T`, browsers and SDKs do for a file;
 * - baseline: `@aws-sdk/lib-storage` `Upload` from this process straight to s3rver, with the
 *   service's part size and queue size;
 * - informational: one upload through the service sent chunked in 64 KiB chunks, as Deno's
 *   `fetch` sends a stream body: at most 256 MiB and 120 s, since Deno's HTTP server can fall
 *   behind such a body for good (functions/object-storage/README.md explains).
 * s3rver runs in a child process of its own (bench/fixtures/s3rver.ts), so that no path
 * shares a thread with the store. Rows: throughput of each (best of the rounds), and the peak
 * RSS growth of the service process over its idle RSS after a warm-up upload (VmRSS sampled
 * every 20 ms). The notes carry the CPU seconds each process spent per path.
 *
 * Size: 1 GiB (64 MiB with `BENCH_QUICK=1`); `BENCH_UPLOAD_MB` picks another. `BENCH_ROUNDS`
 * (default 2, 1 with `BENCH_QUICK=1`) rounds: the SDK and the Content-Length path in turn;
 * then the chunked upload.
 */
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { MIN_PART_SIZE, QUEUE_SIZE } from "../shared/bindings/bucket/s3.ts";
import { BUCKETS, randomMiB, repeated, type S3Bench, startS3Bench } from "./fixtures/s3rver.ts";
import {
  type BenchRow,
  cpuSeconds,
  envCount,
  errorRow,
  formatNotes,
  formatTable,
  peakRss,
  QUICK,
  rssBytes,
} from "./harness.ts";

const MiB = 1024 * 1024;
const RSS_TARGET_MIB = 64;
const RATIO_TARGET = 0.8;
/** Chunk size of the chunked client (what Deno's `fetch` sends for a stream body). */
const CHUNKED_FRAME = 64 * 1024;
/** Longest any one upload may take before the benchmark gives up (bounded run). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/**
 * The chunked upload is informational and can run away (Deno's server, see the README), so it
 * is one upload of at most this many MiB, given at most CHUNKED_TIMEOUT_MS.
 */
const CHUNKED_MAX_MIB = 256;
const CHUNKED_TIMEOUT_MS = 120_000;

/** An upload that ran out of time. */
class UploadTimeout extends Error {
  constructor(ms: number) {
    super(`did not finish within ${ms / 1000} s`);
    this.name = "UploadTimeout";
  }
}

/**
 * `PUT <origin><path>` of `mib` times `chunk` over a plain socket: with `Content-Length`, or
 * (`chunked`) in 64 KiB chunks of `Transfer-Encoding: chunked`, as Deno's `fetch` sends a
 * stream body. Bounded by `timeoutMs` (the socket is closed).
 */
async function put(
  origin: string,
  path: string,
  chunk: Uint8Array,
  mib: number,
  chunked: boolean,
  timeoutMs = UPLOAD_TIMEOUT_MS,
) {
  const { hostname, port } = new URL(origin);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    conn.close();
  }, timeoutMs);
  const encoder = new TextEncoder();
  try {
    const framing = chunked
      ? "Transfer-Encoding: chunked"
      : `Content-Length: ${mib * chunk.length}`;
    const head = `PUT ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n` +
      `Content-Type: application/octet-stream\r\n${framing}\r\n\r\n`;
    // The chunk once framed: 64 KiB pieces, each with its size line.
    let payload: Uint8Array = chunk;
    if (chunked) {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < chunk.length; at += CHUNKED_FRAME) {
        const piece = chunk.subarray(at, at + CHUNKED_FRAME);
        pieces.push(
          encoder.encode(`${piece.length.toString(16)}\r\n`),
          piece,
          encoder.encode("\r\n"),
        );
      }
      payload = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
      let offset = 0;
      for (const p of pieces) {
        payload.set(p, offset);
        offset += p.length;
      }
    }
    const writer = conn.writable.getWriter();
    // Read the response as it comes: a 413 or 500 may arrive before the body is sent.
    const response = new Response(conn.readable).text().catch(() => "");
    try {
      await writer.write(encoder.encode(head));
      for (let i = 0; i < mib; i++) await writer.write(payload);
      if (chunked) await writer.write(encoder.encode("0\r\n\r\n"));
    } catch {
      // The server answered and closed early (or the time ran out); the response says why.
    }
    const text = await response;
    if (timedOut) throw new UploadTimeout(timeoutMs);
    if (!text.startsWith("HTTP/1.1 200")) {
      throw new Error(`service upload failed: ${text.split("\r\n\r\n").slice(0, 2).join(" ")}`);
    }
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
}

/** Runs the benchmark (s3rver and the service as child processes on 127.0.0.1). */
export async function run(): Promise<BenchRow[]> {
  const mib = envCount("BENCH_UPLOAD_MB", QUICK ? 64 : 1024);
  const rounds = envCount("BENCH_ROUNDS", QUICK ? 1 : 2);
  let bench: S3Bench | undefined;
  try {
    bench = await startS3Bench({
      // Large enough for the upload, small enough to keep the part size at S3's 5 MiB minimum.
      MAX_OBJECT_BYTES: String(Math.max(mib, 12) * MiB),
    });
    const { sdk, store } = bench;
    const { origin, pid } = bench.service;
    const chunk = randomMiB();

    // `upload(size, piece)`: `size` times `piece` (the 1 MiB chunk unless given).
    const paths = {
      sdk: async (size: number, piece = chunk) => {
        const abortController = new AbortController();
        const timer = setTimeout(() => abortController.abort(), UPLOAD_TIMEOUT_MS);
        try {
          await new Upload({
            client: sdk,
            params: { Bucket: BUCKETS.raw, Key: "bench.bin", Body: repeated(piece, size) },
            partSize: MIN_PART_SIZE,
            queueSize: QUEUE_SIZE,
            leavePartsOnError: false,
            abortController,
          }).done();
        } finally {
          clearTimeout(timer);
        }
      },
      length: (size: number, piece = chunk) =>
        put(origin, "/object?key=bench.bin", piece, size, false),
      chunked: (size: number, piece = chunk) =>
        put(origin, "/object?key=bench.bin", piece, size, true, CHUNKED_TIMEOUT_MS),
    };
    const remove = (bucket: string) =>
      sdk.send(new DeleteObjectCommand({ Bucket: bucket, Key: "bench.bin" }));

    // Warm-up: load every module and open the connections on every path. The service gets a
    // 32 KiB object, below its first part buffer, so the buffers it keeps between uploads
    // (shared/bucket_s3_upload.ts) are allocated during the measured upload and count.
    await paths.sdk(12);
    await remove(BUCKETS.raw);
    for (const upload of [paths.length, paths.chunked]) {
      await upload(1, chunk.subarray(0, 32 * 1024));
      await remove(BUCKETS.service);
    }
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssBytes(pid);

    type PathName = keyof typeof paths;
    const rates: Record<PathName, number[]> = { sdk: [], length: [], chunked: [] };
    const peaks: Record<PathName, number> = { sdk: idle, length: idle, chunked: idle };
    const cpu: Record<PathName, { bench: number; service: number; s3rver: number }> = {
      sdk: { bench: 0, service: 0, s3rver: 0 },
      length: { bench: 0, service: 0, s3rver: 0 },
      chunked: { bench: 0, service: 0, s3rver: 0 },
    };
    const pids = { bench: Deno.pid, service: pid, s3rver: store.pid };
    // The SDK and the Content-Length path alternate; the chunked upload comes after them, so
    // that what it leaves in the service's heap does not count against the RSS row.
    const chunkedMib = Math.min(mib, CHUNKED_MAX_MIB);
    const order: PathName[] = [];
    for (let round = 0; round < rounds; round++) order.push("sdk", "length");
    order.push("chunked");
    let chunkedError: unknown;
    for (const name of order) {
      const size = name === "chunked" ? chunkedMib : mib;
      const before = Object.fromEntries(
        Object.entries(pids).map(([k, p]) => [k, cpuSeconds(p) ?? NaN]),
      ) as Record<keyof typeof pids, number>;
      const started = performance.now();
      let peak;
      try {
        peak = await peakRss(pid, () => paths[name](size));
      } catch (err) {
        // The informational row may fail alone; the rows with targets still report.
        if (name !== "chunked") throw err;
        chunkedError = err;
        break;
      }
      rates[name].push(size / ((performance.now() - started) / 1000));
      peaks[name] = Math.max(peaks[name], peak);
      const share = name === "chunked" ? 1 : rounds;
      for (const k of Object.keys(pids) as (keyof typeof pids)[]) {
        cpu[name][k] += ((cpuSeconds(pids[k]) ?? NaN) - before[k]) / share;
      }
      await remove(name === "sdk" ? BUCKETS.raw : BUCKETS.service);
    }

    const best = (name: PathName) => Math.max(...rates[name]);
    const cpuNote = (name: PathName) =>
      `CPU s per upload: bench ${cpu[name].bench.toFixed(2)}, service ${
        cpu[name].service.toFixed(2)
      }, s3rver ${cpu[name].s3rver.toFixed(2)}`;
    const common = `${mib} MiB, best of ${rounds}; s3rver in its own process on 127.0.0.1; ` +
      `${MIN_PART_SIZE / MiB} MiB parts x ${QUEUE_SIZE} in flight on both paths`;
    const growth = (peaks.length - idle) / MiB;
    const chunkedGrowth = (peaks.chunked - idle) / MiB;
    return [
      {
        measure: `upload ${mib} MiB through the service (Content-Length) vs raw SDK Upload`,
        unit: "MiB/s",
        project: best("length"),
        baseline: best("sdk"),
        ratio: best("length") / best("sdk"),
        target: `>= ${RATIO_TARGET}x`,
        pass: best("length") / best("sdk") >= RATIO_TARGET,
        note: `${common}; service path ${cpuNote("length")}; SDK path ${cpuNote("sdk")}`,
      },
      {
        measure: "service peak RSS growth during the upload",
        unit: "MiB",
        project: growth,
        baseline: null,
        ratio: growth / RSS_TARGET_MIB,
        target: `< ${RSS_TARGET_MIB} MiB`,
        pass: growth < RSS_TARGET_MIB,
        note: `idle RSS after warm-up ${(idle / MiB).toFixed(0)} MiB, peak ${
          (peaks.length / MiB).toFixed(0)
        } MiB (VmRSS of /proc/<pid>/status every 20 ms)`,
      },
      chunkedError === undefined || chunkedError instanceof UploadTimeout
        ? {
          measure: `upload ${chunkedMib} MiB through the service (chunked, 64 KiB chunks)`,
          unit: "MiB/s",
          project: chunkedError ? NaN : best("chunked"),
          baseline: null,
          ratio: chunkedError ? NaN : best("chunked") / best("sdk"),
          target: "info",
          pass: true,
          note: chunkedError
            ? `no Content-Length: ${
              (chunkedError as Error).message
            } (Deno's HTTP server fell behind the chunks; see functions/object-storage/README.md)`
            : `no Content-Length, one upload, ratio against the SDK's best; ${
              cpuNote("chunked")
            }; service peak RSS growth ${chunkedGrowth.toFixed(0)} MiB`,
        }
        : errorRow(`upload ${chunkedMib} MiB through the service (chunked)`, chunkedError),
    ];
  } finally {
    await bench?.stop();
  }
}

if (import.meta.main) {
  const rows = await run();
  console.log(formatTable(rows));
  console.log(formatNotes(rows));
}
