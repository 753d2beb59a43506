/** Text bodies as streams and back, for the bucket adapters' tests. */

/** UTF-8 bytes of `s`. */
export const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A stream of `chunks`, one chunk per read. */
export const streamOf = (...chunks: string[]): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(text(chunk));
      c.close();
    },
  });

/** The whole of `body` as text. */
export const read = (body: ReadableStream<Uint8Array>): Promise<string> =>
  new Response(body).text();
