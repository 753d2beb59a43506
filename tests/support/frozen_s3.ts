/**
 * S3 stores that stop answering, on 127.0.0.1, for deadline tests: one that accepts
 * connections and never reads or answers (a SIGSTOPped store: the kernel still accepts), and
 * one that speaks enough of the S3 wire format to start a multipart upload and a GET, then
 * stalls in the middle (a part that never gets its answer, a body that stops after 1000 bytes).
 */

/** A store on loopback; `close()` releases everything it holds. */
export interface FrozenStore {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Requests received, as `METHOD path?query` (the stalling store only). */
  requests: string[];
  close(): Promise<void>;
}

/** Accepts TCP connections and never reads from them or answers. */
export function startSilentStore(): FrozenStore {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) conns.push(conn);
    } catch {
      // listener closed
    }
  })();
  return {
    endpoint: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    requests: [],
    async close() {
      listener.close();
      await accepting;
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // closed by the peer
        }
      }
    },
  };
}

/** The bytes a stalled GET sends before it stops. */
export const STALLED_GET_PREFIX = 1000;

/**
 * Answers CreateMultipartUpload and AbortMultipartUpload; reads an UploadPart's body and never
 * answers it; answers a GetObject with headers for 100,000 bytes and stops after the first
 * 1000; leaves every other request unanswered.
 */
export function startStallingStore(): FrozenStore {
  const requests: string[] = [];
  const release = Promise.withResolvers<void>();
  const stall = () => release.promise.then(() => new Response(null, { status: 503 }));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.method === "POST" && url.searchParams.has("uploads")) {
      return xml(
        `<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>` +
          `<UploadId>frozen-upload</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (req.method === "DELETE" && url.searchParams.has("uploadId")) {
      return new Response(null, { status: 204 });
    }
    if (req.method === "PUT" && url.searchParams.has("partNumber")) {
      await req.body?.pipeTo(new WritableStream()).catch(() => {});
      return stall();
    }
    if (req.method === "GET" && !url.searchParams.has("uploadId")) {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sent) {
            sent = true;
            return controller.enqueue(new Uint8Array(STALLED_GET_PREFIX).fill(97));
          }
          await release.promise;
          controller.error(new Error("released"));
        },
      });
      return new Response(body, {
        headers: {
          "content-type": "text/plain",
          "content-length": "100000",
          "etag": '"stalled"',
          "last-modified": new Date().toUTCString(),
        },
      });
    }
    await req.body?.cancel().catch(() => {});
    return stall();
  });
  return {
    endpoint: `http://127.0.0.1:${server.addr.port}`,
    requests,
    async close() {
      release.resolve();
      await server.shutdown();
    },
  };
}

function xml(body: string): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    headers: { "content-type": "application/xml" },
  });
}
