/**
 * The example answer `/openapi.json` shows for `GET /explain` of a repository, without a model (the digest): the app's own output on a test
 * fixture (arrays cut to two entries, long texts shortened), checked against the response schema
 * by Redocly's lint in tests/openapi_test.ts.
 */

/** Example of the success answer. */
export const EXPLAIN_EXAMPLE = {
  "repo": "denoland/deno",
  "description": "A modern runtime for JavaScript and TypeScript.",
  "language": "Rust",
  "stars": 100000,
  "topics": ["javascript", "typescript"],
  "license": "MIT",
  "defaultBranch": "main",
  "files": ["Cargo.toml", "README.md"],
  "summary":
    "Digest (no model) of denoland/deno\nWhat it is: A modern runtime for JavaScript and TypeScript.\nTopics: javascript, typescript, runtime\nLanguages: Rust\nStack: cargo package (Cargo.toml)\nEntry points: workspace of 1 crates\nHow to run: cargo build; cargo run; cargo test\nFrom the README: Deno is a Ja...",
  "digest": {
    "about": "A modern runtime for JavaScript and TypeScript.",
    "topics": ["javascript", "typescript"],
    "languages": ["Rust"],
    "stack": [{
      "file": "Cargo.toml",
      "ecosystem": "cargo",
      "language": "Rust",
      "name": null,
      "version": null,
      "dependencies": [],
      "devDependencies": [],
    }],
    "entryPoints": ["workspace of 1 crates"],
    "run": [{ "command": "cargo build", "runs": null }, { "command": "cargo run", "runs": null }],
    "readmeIntro":
      "Deno is a JavaScript, TypeScript, and WebAssembly runtime with secure defaults.",
    "tree": ["Cargo.toml", "README.md"],
  },
};
