/** Each manifest format read into the same facts; unparsable manifests keep their ecosystem. */
import assert from "node:assert/strict";
import {
  fileInCommand,
  MAX_DEPENDENCIES,
  readManifest,
  requirementName,
} from "../../functions/repo-explainer/manifests.ts";

Deno.test("package.json: pnpm from the lockfile, bins, TypeScript from tsconfig, usual scripts first", () => {
  const pkg = JSON.stringify({
    name: "@acme/tool",
    version: "2.0.0",
    main: "./dist/index.js",
    bin: { tool: "./bin/tool.js" },
    scripts: { lint: "eslint .", build: "tsc -p .", zz: "echo", dev: "vite --port 3000" },
    dependencies: { zod: "^4" },
    devDependencies: { typescript: "^5", vite: "^6" },
  });
  const facts = readManifest("package.json", pkg, ["pnpm-lock.yaml", "tsconfig.json", "src/"])!;
  assert.equal(facts.language, "TypeScript");
  assert.equal(facts.name, "@acme/tool");
  assert.deepEqual(facts.dependencies, ["zod"]);
  assert.deepEqual(facts.devDependencies, ["typescript", "vite"]);
  assert.deepEqual(facts.entryPoints, ["dist/index.js (main)", "bin tool → bin/tool.js"]);
  assert.deepEqual(facts.run, [
    { command: "pnpm install", runs: null },
    { command: "pnpm dev", runs: "vite --port 3000" },
    { command: "pnpm build", runs: "tsc -p ." },
    { command: "pnpm lint", runs: "eslint ." },
    { command: "pnpm zz", runs: "echo" },
  ]);
});

Deno.test("package.json: long dependency lists are cut with a count; broken JSON keeps the ecosystem", () => {
  const deps = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`dep${i}`, "1"]));
  const facts = readManifest("package.json", JSON.stringify({ dependencies: deps }))!;
  assert.equal(facts.dependencies.length, MAX_DEPENDENCIES + 1);
  assert.equal(facts.dependencies.at(-1), "(+5 more)");
  assert.deepEqual(facts.run, [{ command: "npm install", runs: null }]);
  const broken = readManifest("package.json", '{"name": "cut-at-64k", "dependencies": {')!;
  assert.equal(broken.ecosystem, "npm");
  assert.equal(broken.name, null);
  assert.deepEqual(broken.dependencies, []);
});

Deno.test("Cargo.toml: package, dependencies, bins and a workspace", () => {
  const facts = readManifest(
    "Cargo.toml",
    `[package]
name = "ripgrep"
version = "14.1.0"
edition = "2021"

[[bin]]
name = "rg"
path = "crates/core/main.rs"

[workspace]
members = ["crates/globset", "crates/grep"]

[dependencies]
bstr = "1.6"
grep = { version = "0.3", path = "crates/grep" }

[dev-dependencies]
serde_json = "1"
`,
  )!;
  assert.equal(facts.language, "Rust");
  assert.equal(facts.name, "ripgrep");
  assert.deepEqual(facts.dependencies, ["bstr", "grep"]);
  assert.deepEqual(facts.devDependencies, ["serde_json"]);
  assert.deepEqual(facts.entryPoints, ["bin rg → crates/core/main.rs", "workspace of 2 crates"]);
  assert.deepEqual(facts.run.map((r) => r.command), ["cargo build", "cargo run", "cargo test"]);
});

Deno.test("go.mod: module, go version, direct requirements only", () => {
  const facts = readManifest(
    "go.mod",
    `module github.com/acme/svc

go 1.22

require github.com/spf13/cobra v1.8.0

require (
\tgithub.com/stretchr/testify v1.9.0
\tgolang.org/x/sys v0.20.0 // indirect
)
`,
    ["cmd/", "go.mod"],
  )!;
  assert.equal(facts.name, "github.com/acme/svc");
  assert.equal(facts.version, "go 1.22");
  assert.deepEqual(facts.dependencies.sort(), [
    "github.com/spf13/cobra",
    "github.com/stretchr/testify",
  ]);
  assert.deepEqual(facts.entryPoints, ["cmd/ (one command per folder)"]);
  assert.deepEqual(facts.run.map((r) => r.command), ["go build ./...", "go test ./..."]);
});

Deno.test("pyproject.toml: PEP 621 and Poetry", () => {
  const pep = readManifest(
    "pyproject.toml",
    `[project]
name = "httpie"
version = "3.2.2"
dependencies = ["requests[socks]>=2.22.0", "Pygments>=2.5.2", "charset_normalizer>=2.0.0"]

[project.optional-dependencies]
test = ["pytest"]

[project.scripts]
http = "httpie.__main__:main"
`,
  )!;
  assert.deepEqual(pep.dependencies, ["requests", "Pygments", "charset_normalizer"]);
  assert.deepEqual(pep.devDependencies, ["pytest"]);
  assert.deepEqual(pep.entryPoints, ["http → httpie.__main__:main"]);
  assert.deepEqual(pep.run, [
    { command: "pip install .", runs: null },
    { command: "http", runs: "httpie.__main__:main" },
  ]);
  const poetry = readManifest(
    "pyproject.toml",
    `[tool.poetry]
name = "app"
version = "0.1.0"

[tool.poetry.dependencies]
python = "^3.11"
fastapi = "^0.110"

[tool.poetry.group.dev.dependencies]
pytest = "^8"
`,
  )!;
  assert.equal(poetry.name, "app");
  assert.deepEqual(poetry.dependencies, ["fastapi"]);
  assert.deepEqual(poetry.devDependencies, ["pytest"]);
  assert.equal(poetry.run[0].command, "poetry install");
});

Deno.test("composer.json, Gemfile and Makefile", () => {
  const php = readManifest(
    "composer.json",
    JSON.stringify({
      name: "laravel/laravel",
      require: { php: "^8.2", "ext-json": "*", "laravel/framework": "^11.0" },
      "require-dev": { "phpunit/phpunit": "^11" },
      scripts: { test: "phpunit" },
    }),
  )!;
  assert.equal(php.language, "PHP");
  assert.deepEqual(php.dependencies, ["laravel/framework"]);
  assert.deepEqual(php.run.map((r) => r.command), ["composer install", "composer run test"]);
  const ruby = readManifest(
    "Gemfile",
    `source "https://rubygems.org"\ngem "rails", "~> 7.1"\n  gem 'puma'\n# gem "old"\n`,
  )!;
  assert.deepEqual(ruby.dependencies, ["rails", "puma"]);
  const make = readManifest(
    "Makefile",
    "CC := gcc\nall: build\nbuild: main.o\n\t$(CC) -o app main.o\n%.o: %.c\n.PHONY: all test\ntest:\n",
  )!;
  assert.equal(make.language, null);
  assert.deepEqual(make.run.map((r) => r.command), ["make test", "make build", "make all"]);
});

Deno.test("helpers: the file a command starts, a requirement's name; unknown manifests are null", () => {
  assert.equal(
    fileInCommand("node --enable-source-maps ./src/server.mjs --port 3"),
    "src/server.mjs",
  );
  assert.equal(fileInCommand("deno run -A --watch main.ts"), "main.ts");
  assert.equal(fileInCommand("vite build"), null);
  assert.equal(
    requirementName("  mkdocs-material[imaging]==9.5 ; python_version>'3'"),
    "mkdocs-material",
  );
  assert.equal(requirementName("git+https://x"), "git");
  assert.equal(readManifest("setup.cfg", "[metadata]"), null);
});
