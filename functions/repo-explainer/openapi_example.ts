/**
 * The example answers `/openapi.json` shows: `GET /explain` of a repository without a model (the
 * app's own output on the fake GitHub API, arrays cut to two entries) and `GET /digest` of a small
 * one; both are checked against the response schemas by Redocly's lint in tests/openapi_test.ts.
 */

/** Example of the `GET /explain` answer. */
export const EXPLAIN_EXAMPLE = {
  "repo": "denoland/deno",
  "description": "A modern runtime for JavaScript and TypeScript.",
  "language": "Rust",
  "stars": 100000,
  "topics": ["javascript", "typescript"],
  "license": "MIT",
  "defaultBranch": "main",
  "files": ["Cargo.toml", "README.md"],
  "tokens": {
    "tokenizer": "o200k_base",
    "exact": true,
    "total": 60,
    "files": [{ "path": "Cargo.toml", "tokens": 18 }, { "path": "LICENSE.md", "tokens": 11 }],
    "directories": [],
  },
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

/** Example of the `GET /digest` answer. */
export const DIGEST_EXAMPLE = {
  "repo": "acme/atlas",
  "ref": "main",
  "commit": "c0ffee0000000000000000000000000000000001",
  "maxTokens": 100000,
  "content":
    "Repository: acme/atlas\nRef: main\nCommit: c0ffee0000000000000000000000000000000001\n\nDirectory structure:\nREADME.md\nsrc/\n  index.ts\n\n================================================\nFILE: README.md\n================================================\n# Atlas\n\nMaps for everyone.\n\n================================================\nFILE: src/index.ts\n================================================\nexport const atlas = true;\n",
  "tokens": {
    "tokenizer": "o200k_base",
    "exact": true,
    "total": 61,
    "files": [{ "path": "README.md", "tokens": 9 }, { "path": "src/index.ts", "tokens": 8 }],
    "directories": [{ "path": "src/", "tokens": 8 }],
  },
  "omitted": [{ "path": "package-lock.json", "reason": "generated", "bytes": 24 }, {
    "path": "src/big.ts",
    "reason": "max-tokens",
    "bytes": 7912,
    "tokens": 1809,
  }],
  "truncated": null,
};
