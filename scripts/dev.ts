/**
 * `deno task dev`: runs all eight experiments at once with their embedded defaults, each
 * restarted on change (`--watch`), and prints a table of their URLs.
 */
import { EXPERIMENTS } from "./experiments.ts";

const children = EXPERIMENTS.map(({ slug, port }) => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--watch", `functions/${slug}/main.ts`],
    env: {
      PORT: String(port),
      PUBLIC_BUCKET_URL: Deno.env.get("PUBLIC_BUCKET_URL") ?? "http://localhost:8008/public",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  prefix(child.stdout, slug, Deno.stdout);
  prefix(child.stderr, slug, Deno.stderr);
  return child;
});

console.log("\nEdge Utility Services (dev)\n");
console.log("experiment            URL");
for (const { slug, port, example: route } of EXPERIMENTS) {
  console.log(`${slug.padEnd(21)} http://localhost:${port}/   e.g. ${route}`);
}
console.log("\nEach serves GET / (what it is), /openapi.json and /docs. Ctrl-C stops all.\n");

/** Copies a child's output to ours, each line prefixed with the experiment's slug. */
async function prefix(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  slug: string,
  out: typeof Deno.stdout,
) {
  const encoder = new TextEncoder();
  let buffered = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) await out.write(encoder.encode(`[${slug}] ${line}\n`));
  }
}

const stop = () => {
  for (const child of children) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
  }
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
await Promise.all(children.map((c) => c.status));
