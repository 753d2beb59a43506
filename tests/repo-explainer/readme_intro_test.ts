/** The README's first real paragraph: badges, logos, taglines and markup are skipped. */
import assert from "node:assert/strict";
import {
  MAX_INTRO_CHARS,
  MAX_LEXED_CHARS,
  readmeIntro,
} from "../../functions/repo-explainer/readme_intro.ts";

Deno.test("the first prose paragraph, after a heading, a logo and a badge row", () => {
  const md = `# deno

<img align="right" src="https://deno.land/logo.svg" height="150px" alt="the deno mascot">

[![](https://img.shields.io/crates/v/deno.svg)](https://crates.io/crates/deno)
[![Twitter badge][]][Twitter link] [![Discord badge][]][Discord link]

Fast

[Deno](https://www.deno.com) (/ˈdiːnoʊ/, pronounced \`dee-no\`) is a JavaScript, TypeScript, and
WebAssembly runtime with **secure defaults** and a great developer experience.

## Installation
`;
  assert.equal(
    readmeIntro(md),
    "Deno (/ˈdiːnoʊ/, pronounced dee-no) is a JavaScript, TypeScript, and WebAssembly runtime " +
      "with secure defaults and a great developer experience.",
  );
});

Deno.test("no prose at all is null; empty or missing README is null", () => {
  assert.equal(
    readmeIntro(
      "# Title\n\n```sh\nnpm i thing\n```\n\n- a list item that is long enough to count\n",
    ),
    null,
  );
  assert.equal(readmeIntro("[![a](b)](c) [![d](e)](f)"), null);
  assert.equal(readmeIntro(""), null);
  assert.equal(readmeIntro(null), null);
});

Deno.test("a long paragraph is cut at a sentence end within the cap", () => {
  const sentence = "This library parses things quickly and reports every error it finds. ";
  const intro = readmeIntro(sentence.repeat(20))!;
  assert.ok(intro.length <= MAX_INTRO_CHARS, String(intro.length));
  assert.ok(intro.endsWith("finds."), intro.slice(-20));
});

Deno.test("only the README's first 8 KiB is searched, with the link definitions of the rest", () => {
  const filler = "## Notes\n\n" + "- short item\n".repeat(Math.ceil(MAX_LEXED_CHARS / 13));
  const late = "This paragraph comes after the first eight kibibytes of the README file.";
  assert.equal(readmeIntro(`# x\n\n${filler}\n${late}\n`), null, "past the head: not read");
  const intro = "[Rocket][site] serves static sites with zero configuration, fast and small.";
  assert.equal(
    readmeIntro(`# Rocket\n\n${intro}\n\n${filler}\n[site]: https://rocket.example/\n`),
    "Rocket serves static sites with zero configuration, fast and small.",
    "a reference defined at the bottom still resolves",
  );
});

Deno.test("a hostile 64 KiB README is read promptly (marked's inline lexer is quadratic on it)", () => {
  /** The fastest of 3 reads of `kib` KiB of `unit` (the least disturbed by other work). */
  const fastest = (unit: string, kib: number) => {
    const text = unit.repeat(kib * 1024 / unit.length);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      readmeIntro(text);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  for (const unit of ["_a", "[", "*a"]) {
    // Only the 8 KiB head is lexed, so 64 KiB costs what 16 KiB does; lexed whole, the
    // quadratic lexer made it 16x (the whole 64 KiB of `_a` took 2.9 s). A ratio of two times
    // of the same run: a loaded machine slows both.
    const small = fastest(unit, 16);
    const large = fastest(unit, 64);
    assert.ok(
      large < 4 * small + 1,
      `${unit}: 64 KiB ${large.toFixed(1)} ms, 16 KiB ${small.toFixed(1)} ms`,
    );
  }
});
