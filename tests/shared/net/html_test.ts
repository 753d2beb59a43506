import assert from "node:assert/strict";
import {
  type AnyNode,
  attr,
  DEFAULT_PARSE_LIMITS,
  documentBase,
  type Element,
  HtmlLimitError,
  parseHtml,
  parseHtmlBounded,
  parsePage,
  readableText,
  resolveUrl,
  select,
  selectFirst,
  streamHtmlBounded,
  streamPage,
  text,
  walk,
} from "../../../shared/net/html.ts";
import { ApiError } from "../../../shared/contract/errors.ts";

const PAGE = `<!doctype html><html lang="en"><head><title> Hello &amp; welcome </title>
<base href="/sub/"><script>var x = "<b>not text</b>";</script><style>p{}</style></head>
<body><nav>Menu</nav><main><h1>Title</h1><p>First <b>para</b>.</p><img src="a.png" alt="">
<p>Second&nbsp;para</p></main><footer>Footer</footer><template>hidden</template></body></html>`;

Deno.test("parseHtml + select read elements, attributes and decoded text", () => {
  const doc = parseHtml(PAGE);
  assert.equal(text(selectFirst(doc, "title")), "Hello & welcome");
  assert.equal(select(doc, "p").length, 2);
  assert.equal(attr(selectFirst(doc, "img"), "src"), "a.png");
  assert.equal(attr(selectFirst(doc, "img"), "alt"), null, "empty attributes read as null");
  assert.equal(attr(selectFirst(doc, "html"), "lang"), "en");
});

Deno.test("readableText skips scripts, styles, templates and the tags asked for", () => {
  const doc = parseHtml(PAGE);
  assert.equal(readableText(doc), "Menu Title First para. Second para Footer");
  assert.equal(readableText(doc, ["nav", "footer"]), "Title First para. Second para");
});

Deno.test("documentBase honours <base href> and resolveUrl makes URLs absolute", () => {
  const doc = parseHtml(PAGE);
  const base = documentBase(doc, "https://example.com/page/index.html");
  assert.equal(base, "https://example.com/sub/");
  assert.equal(resolveUrl("a.png", base), "https://example.com/sub/a.png");
  assert.equal(resolveUrl("//cdn.test/x.js", base), "https://cdn.test/x.js");
  assert.equal(resolveUrl("http://[bad", base), null);
  assert.equal(resolveUrl(null, base), null);
});

Deno.test("malformed markup parses without throwing", () => {
  const doc = parseHtml("<div><p>unclosed <b>bold <i>both</div></p><<>>");
  assert.ok(text(doc).includes("unclosed"));
});

/** `levels` unclosed `<div>`s: a hostile page whose nesting grows the tree without bound. */
function nested(levels: number): string {
  return `<!doctype html><html><body>${"<div>x".repeat(levels)}</body></html>`;
}

Deno.test("parseHtmlBounded builds the same tree as parseHtml within the limits", async () => {
  const doc = await parseHtmlBounded(PAGE, { sliceChars: 17 });
  assert.equal(text(selectFirst(doc, "title")), "Hello & welcome");
  assert.equal(select(doc, "p").length, 2);
  assert.equal(readableText(doc), readableText(parseHtml(PAGE)));
});

Deno.test("streamHtmlBounded reports the tags, attributes and text the tree holds", async () => {
  const tags: string[] = [];
  let scriptText = "";
  let inScript = false;
  await streamHtmlBounded(PAGE, {
    onopentag(name, attribs) {
      tags.push(attribs.src ? `${name}[src=${attribs.src}]` : name);
      inScript = name === "script";
    },
    ontext(data) {
      if (inScript) scriptText += data;
    },
    onclosetag() {
      inScript = false;
    },
  }, { sliceChars: 7 });
  const tree: string[] = [];
  walk(parseHtml(PAGE), (n: AnyNode) => {
    if (n.type === "tag" || n.type === "script" || n.type === "style") {
      const el = n as Element;
      tree.push(el.attribs.src ? `${el.name}[src=${el.attribs.src}]` : el.name);
    }
  });
  assert.deepEqual(tags, tree);
  // Split across slices, the script's raw text still arrives whole.
  assert.equal(scriptText, 'var x = "<b>not text</b>";');
});

Deno.test("a stream and a tree count nodes alike: maxNodes holds at the same bound", async () => {
  // 3 × (p, text, comment) = 9 nodes: text split across slices is still one node.
  const page = "<p>some text</p><!-- a comment -->".repeat(3);
  for (const parse of [(l: object) => parseHtmlBounded(page, l), streamOnly(page)]) {
    await parse({ maxNodes: 9, sliceChars: 3 });
    await assert.rejects(
      () => parse({ maxNodes: 8, sliceChars: 3 }),
      (err: unknown) => err instanceof HtmlLimitError && err.limit === "maxNodes",
    );
  }
  await assert.rejects(
    () => streamPage(nested(5_000), {}),
    (err: unknown) => err instanceof ApiError && err.code === "PARSE_ERROR",
  );
});

/** A streaming parse of `page` that listens to nothing. */
function streamOnly(page: string) {
  return (limits: object) => streamHtmlBounded(page, {}, limits);
}

Deno.test("a page nested deeper than maxDepth is refused as soon as it passes the bound", async () => {
  const page = nested(200_000);
  const refusals: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await assert.rejects(
      () => parseHtmlBounded(page),
      (err: unknown) =>
        err instanceof HtmlLimitError && err.limit === "maxDepth" &&
        err.message === `Page nests elements deeper than ${DEFAULT_PARSE_LIMITS.maxDepth} levels`,
    );
    refusals.push(performance.now() - started);
  }
  // 1.2 MB of markup, refused after its first slice: in the same run, a fraction of the time
  // a flat page of the same size takes to parse whole (the fastest of three refusals). Its
  // text is entities, which the tokenizer reads a character at a time (a run of plain text
  // is skipped in one search).
  const flat = `<!doctype html><html><body><div>${
    "a&amp;".repeat(page.length / 6)
  }</div></body></html>`;
  const started = performance.now();
  await parseHtmlBounded(flat);
  const whole = performance.now() - started;
  const refused = Math.min(...refusals);
  assert.ok(
    refused < whole / 2,
    `refused after ${refused.toFixed(1)} ms, whole ${whole.toFixed(1)}`,
  );
  // At the bound itself it parses.
  await parseHtmlBounded(nested(DEFAULT_PARSE_LIMITS.maxDepth - 3));
});

Deno.test("a page with more nodes than maxNodes is refused", async () => {
  await assert.rejects(
    () => parseHtmlBounded("<p>a</p>".repeat(600), { maxNodes: 1_000 }),
    (err: unknown) => err instanceof HtmlLimitError && err.limit === "maxNodes",
  );
  await parseHtmlBounded("<p>a</p>".repeat(400), { maxNodes: 1_000 });
});

Deno.test("a parse that takes longer than maxMillis is refused between slices", async () => {
  await assert.rejects(
    () => parseHtmlBounded("<p>a</p>".repeat(20_000), { maxMillis: 0, sliceChars: 1_000 }),
    (err: unknown) => err instanceof HtmlLimitError && err.limit === "maxMillis",
  );
});

Deno.test("timers run while a large page is parsed (the parse yields between slices)", async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const page = "<p>text</p>".repeat(100_000);
  let doc;
  try {
    doc = await parseHtmlBounded(page, { sliceChars: 16 * 1024 });
  } finally {
    clearInterval(timer);
  }
  // A parse that never yielded would let no timer run until it ended (0 ticks); the number of
  // yields depends on the machine's speed (one per 25 ms of parsing), so only "some" is asserted.
  assert.ok(ticks >= 2, `only ${ticks} timer ticks during the parse`);
  // Paused and resumed, it is the tree of one parse without pauses.
  assert.equal(select(doc, "p").length, 100_000);
  assert.equal(readableText(doc), readableText(parseHtml(page)));
});

Deno.test("one huge tag does not hold the instance: the parse still pauses inside it", async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  let attributes = 0;
  try {
    // 4 MB, one tag: two million attributes (one name repeated).
    await streamHtmlBounded(`<a${" b".repeat(2_000_000)}>x</a>`, {
      onopentag(_name, attribs) {
        attributes = Object.keys(attribs).length;
      },
    });
  } finally {
    clearInterval(timer);
  }
  assert.equal(attributes, 1);
  assert.ok(ticks >= 2, `only ${ticks} timer ticks during the parse`);
});

Deno.test("text of many entities before one tag parses in linear time", async () => {
  // Each entity ends a run of text, and the next `<` is at the end: a search for it from every
  // run would be quadratic in the page.
  const time = async (entities: number) => {
    const page = `<div>${"a&amp;".repeat(entities)}</div>`;
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await streamHtmlBounded(page, {});
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  await time(1_000); // compiled before timing
  const [small, large] = [await time(20_000), await time(160_000)];
  // 8x the entities: linear is about 8x; quadratic was about 40x at these sizes.
  assert.ok(large / small < 20, `${small.toFixed(1)} ms, then ${large.toFixed(1)} ms`);
});

Deno.test("parsePage turns a limit into the route's 502 with the limit's message", async () => {
  await assert.rejects(
    () => parsePage(nested(5_000)),
    (err: unknown) =>
      err instanceof ApiError && err.code === "PARSE_ERROR" && err.status === 502 &&
      /deeper than 1024 levels/.test(err.message),
  );
  await assert.rejects(
    () => parsePage(nested(5_000), "FETCH_OR_AI_ERROR"),
    (err: unknown) => err instanceof ApiError && err.code === "FETCH_OR_AI_ERROR",
  );
});

Deno.test("walk visits every node in document order without recursion, and can skip", async () => {
  // 50k levels: a recursive walk would overflow the stack here.
  const doc = await parseHtmlBounded(nested(50_000), { maxDepth: 60_000, maxNodes: 200_000 });
  let elements = 0;
  walk(doc, (n: AnyNode) => {
    if (n.type === "tag") elements++;
  });
  assert.equal(elements, 50_000 + 2);
  const order: string[] = [];
  walk(parseHtml("<a><b></b><c><d></d></c></a><e></e>"), (n: AnyNode) => {
    if (n.type !== "tag") return;
    order.push((n as { name: string }).name);
    return (n as { name: string }).name !== "c";
  });
  assert.deepEqual(order, ["a", "b", "c", "e"]);
});

Deno.test("resolveUrl gives what URL parsing gives, for hrefs its shortcuts take and those they leave", () => {
  const parsed = (href: string, base: string) => {
    try {
      return new URL(href.trim(), base).href;
    } catch {
      return null;
    }
  };
  const bases = [
    "https://fixtures.example.com/pages/blog.html",
    "http://u:p@example.com:8080/a/b?q#f",
    "https://example.com:443/",
    "http://[::1]:3000/x/",
    "file:///tmp/x.html",
    "not a url",
  ];
  const pieces = [
    "https://",
    "http://",
    "HTTP://",
    "//",
    "/",
    "\\",
    ".",
    "..",
    "%2e",
    "%2E",
    "?",
    "#",
    "a",
    "Z",
    "0",
    "9",
    "-",
    "_",
    "~",
    "'",
    '"',
    " ",
    "\t",
    "\n",
    "@",
    ":",
    ":80",
    ":443",
    "xn--",
    "xn--a",
    "example.com",
    "EXAMPLE.com",
    "1.2.3.4",
    "0x7f",
    "%",
    "%zz",
    "é",
    "&",
    "=",
    ";",
    "|",
    "`",
    "{",
    "<",
    "[",
  ];
  let x = 7;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % pieces.length;
  };
  for (let i = 0; i < 20_000; i++) {
    let href = "";
    for (let n = 1 + (i % 9); n > 0; n--) href += pieces[next()];
    for (const base of bases) {
      assert.equal(resolveUrl(href, base), parsed(href, base), `${JSON.stringify(href)} @ ${base}`);
    }
  }
  // The common shapes, which the shortcuts answer, and their near misses.
  for (
    const href of [
      "https://xn--a.com/x",
      "https://a.xn--ab/x",
      "https://1.2.3.4/x",
      "https://a.0x7f/x",
      "https://example.com:443/x",
      "https://example.com./x",
      "https://a..b/x",
      "https://example.com/a b",
      "https://example.com/?q='",
      "/?q='",
      "/\\evil.test/x",
      "https://lighthouse.example/images/edge-cache-cover.jpg",
      "/icons/favicon-32.png",
      "/oembed?url=https%3A%2F%2Fx.example%2F&format=json",
      "/a/./b",
      "/a/%2e%2E/b",
    ]
  ) {
    for (const base of bases) assert.equal(resolveUrl(href, base), parsed(href, base), href);
  }
});
