/** The eight experiments: slug (folder under functions/), local port, an example call. */
export const EXPERIMENTS = [
  { slug: "dependency-analyzer", port: 8001, example: "/analyze?url=https://example.com" },
  { slug: "metadata-extractor", port: 8002, example: "/metadata?url=https://example.com" },
  { slug: "devtools-inspector", port: 8003, example: "/inspect?url=https://example.com" },
  { slug: "ai-summary", port: 8004, example: "/summary?url=https://example.com" },
  { slug: "repo-explainer", port: 8005, example: "/explain?url=https://github.com/denoland/deno" },
  { slug: "screenshot", port: 8006, example: "/screenshot?url=https://example.com" },
  { slug: "link-shortener", port: 8007, example: "/shorten (POST)" },
  { slug: "object-storage", port: 8008, example: "/object?key=hello.txt (PUT)" },
] as const;

/** Every experiment's slug. */
export const SLUGS = EXPERIMENTS.map((e) => e.slug);
