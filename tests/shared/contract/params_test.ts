import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError } from "../../../shared/contract/errors.ts";
import { z } from "@hono/zod-openapi";
import {
  booleanParam,
  coercedIntegerParam,
  enumParam,
  MESSAGES,
  NOT_A_STRING,
  type Params,
  patternStringParam,
  rangeParam,
  readParams,
  stringListParam,
  stringParam,
  URL_PARAM,
} from "../../../shared/contract/params.ts";
import { errorOf } from "../../support/api_error.ts";

const BAD_URL = { code: "INVALID_URL", message: MESSAGES.url };

Deno.test("URL_PARAM: the URL input rule, normalised; anything else is INVALID_URL", () => {
  assert.equal(URL_PARAM.parse(" https://Example.com "), "https://example.com/");
  for (const raw of [undefined, "", "  ", "example.com", "ftp://x/", "http://", ["http://a/"]]) {
    assert.deepEqual(errorOf(() => URL_PARAM.parse(raw)), BAD_URL, JSON.stringify(raw));
  }
});

Deno.test("enumParam: absent is undefined, one of the values is itself, else INVALID_INPUT", () => {
  const format = enumParam(["a", "b"], { description: "d", message: "format must be a or b" });
  assert.equal(format.parse(undefined), undefined);
  assert.equal(format.parse("b"), "b");
  const bad = { code: "INVALID_INPUT", message: "format must be a or b" };
  for (const raw of ["", "c", "A", ["a", "b"], ["a"]]) {
    assert.deepEqual(errorOf(() => format.parse(raw)), bad, JSON.stringify(raw));
  }
  assert.deepEqual(format.values, ["a", "b"]);
  assert.equal(format.required, false);
});

/** An app answering the params it read, or the error's code and message. */
function echo(params: Params) {
  const app = new Hono();
  app.get("/x/:code", (c) => {
    try {
      return c.json(readParams(c, params));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return c.json({ code: err.code, message: err.message }, 400);
    }
  });
  return async (path: string) => {
    const res = await app.request(path);
    return { status: res.status, body: await res.json() };
  };
}

Deno.test("readParams: query and path values, checked in order, a repeated one refused", async () => {
  const format = enumParam(["a", "b"], { description: "d", message: "bad format" });
  const code = { ...URL_PARAM, in: "path" as const, parse: (raw: unknown) => `code:${raw}` };
  const get = echo({ url: URL_PARAM, format, code });
  assert.deepEqual(await get("/x/abc?url=http://a.test&format=b"), {
    status: 200,
    body: { url: "http://a.test/", format: "b", code: "code:abc" },
  });
  // Both bad: the first declared is the one answered.
  assert.deepEqual(await get("/x/abc?url=nope&format=c"), { status: 400, body: BAD_URL });
  assert.deepEqual(await get("/x/abc?url=http://a.test&format=c"), {
    status: 400,
    body: { code: "INVALID_INPUT", message: "bad format" },
  });
  assert.deepEqual(await get("/x/abc?url=http://a.test&url=http://b.test"), {
    status: 400,
    body: BAD_URL,
  });
  assert.deepEqual(await get("/x/abc?url=http://a.test&format=a&format=a"), {
    status: 400,
    body: { code: "INVALID_INPUT", message: "bad format" },
  });
});

Deno.test("booleanParam: absent is false, exactly true or false, else INVALID_INPUT", () => {
  const flag = booleanParam({ description: "d", message: "flag must be true or false" });
  assert.equal(flag.parse(undefined), false);
  assert.equal(flag.parse("true"), true);
  assert.equal(flag.parse("false"), false);
  const bad = { code: "INVALID_INPUT", message: "flag must be true or false" };
  for (const raw of ["", "1", "0", "TRUE", "yes", " true", ["true"], ["true", "true"]]) {
    assert.deepEqual(errorOf(() => flag.parse(raw)), bad, JSON.stringify(raw));
  }
  assert.deepEqual(flag.schema, { type: "boolean" });
  assert.equal(flag.required, false);
});

Deno.test("rangeParam: plain decimals within the bounds, else INVALID_INPUT", () => {
  const message = "width must be an integer from 320 to 3840";
  const width = rangeParam(320, 3840, { integer: true, description: "d", message });
  assert.equal(width.parse(undefined), undefined);
  assert.equal(width.parse("320"), 320);
  assert.equal(width.parse("3840"), 3840);
  assert.equal(width.parse("0800"), 800);
  const bad = { code: "INVALID_INPUT", message };
  for (
    const raw of ["", "319", "3841", "1e3", "0x400", " 800", "800 ", "800.0", "-800", "+800", [
      "800",
    ]]
  ) {
    assert.deepEqual(errorOf(() => width.parse(raw)), bad, JSON.stringify(raw));
  }
  assert.deepEqual(width.schema, { type: "integer", minimum: 320, maximum: 3840 });

  const scale = rangeParam(1, 3, { integer: false, description: "d", message: "scale" });
  assert.equal(scale.parse("1.5"), 1.5);
  assert.equal(scale.parse("3"), 3);
  for (const raw of ["0.5", "3.01", "1.", ".5", "1e0", "Infinity", "NaN"]) {
    assert.deepEqual(errorOf(() => scale.parse(raw)).message, "scale", raw);
  }
  assert.deepEqual(scale.schema, { type: "number", minimum: 1, maximum: 3 });
  // A parameter that is a plain string says nothing more.
  assert.equal(URL_PARAM.schema, undefined);
});

/**
 * What `schema` answers `raw`: its value, or the first issue's message (the first shell's
 * error), next to what `param` answers.
 */
function bothAnswers(schema: z.ZodType, param: { parse(raw: unknown): unknown }, raw: unknown) {
  const parsed = schema.safeParse(raw);
  const zod = parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0].message };
  let own;
  try {
    own = { value: param.parse(raw) };
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, "INVALID_INPUT");
    own = { error: err.message };
  }
  return { zod, own };
}

Deno.test("patternStringParam: absent is undefined, else zod's string().regex() answers", () => {
  const pattern = /^(?!\/)[a-z/]{1,5}$/;
  const ref = patternStringParam(pattern, { description: "d" });
  const schema = z.string().regex(pattern).optional();
  for (const raw of [undefined, "a", "a/b", "", "/a", "abcdef", "A", ["a", "b"]]) {
    const { zod, own } = bothAnswers(schema, ref, raw);
    assert.deepEqual(own, zod, JSON.stringify(raw));
  }
  assert.equal(ref.pattern, pattern.source);
  assert.throws(() => ref.parse("/"));
});

Deno.test("stringListParam: absent is [], one is a list, too many first, then a bad one", () => {
  const valid = (s: string) => s !== "" && !s.includes("!");
  const globs = stringListParam(3, valid, { description: "d", message: "Invalid glob" });
  // The first shell's schema of the same list.
  const schema = z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.string().refine(valid, "Invalid glob")).max(3),
  );
  const cases: unknown[] = [undefined, "a", "", "!", ["a", "b"], ["a", "!"], ["a", "b", "c"]];
  cases.push(["a", "b", "c", "d"], ["!", "b", "c", "d"], ["a", "", "c", "!", "e"]);
  for (const raw of cases) {
    const { zod, own } = bothAnswers(schema, globs, raw);
    assert.deepEqual(own, zod, JSON.stringify(raw));
  }
  assert.deepEqual(globs.parse(undefined), []);
  assert.deepEqual(globs.schema, { type: "array", items: { type: "string" }, maxItems: 3 });
});

Deno.test("coercedIntegerParam: zod's coerce.number().int().min().max() answers, default when absent", () => {
  const max = coercedIntegerParam(1, 2_000_000, { description: "d", default: 100 });
  const schema = z.coerce.number().int().min(1).max(2_000_000).default(100);
  const cases: unknown[] = [undefined, "1", "2000000", "0", "-1", "2000001", "", " ", " 12 "];
  cases.push("1e3", "0x10");
  cases.push("0b11", "+5", "1.5", "-1.5", "1e-7", "4.0000000000000001", "abc", "NaN", "1_000");
  cases.push("Infinity", "-Infinity", "1e400", "9007199254740993", "-9007199254740993");
  cases.push(["1", "2"]);
  for (const raw of cases) {
    const { zod, own } = bothAnswers(schema, max, raw);
    assert.deepEqual(own, zod, JSON.stringify(raw));
  }
  assert.equal(max.parse(undefined), 100);
  assert.deepEqual(max.schema, { type: "integer", minimum: 1, maximum: 2_000_000 });
});

Deno.test("readParams: a list parameter takes each repeated value", async () => {
  const globs = stringListParam(2, (s) => s !== "", { description: "d", message: "bad glob" });
  const get = echo({ url: URL_PARAM, include: globs });
  assert.deepEqual(await get("/x/c?url=http://a.test&include=a&include=b"), {
    status: 200,
    body: { url: "http://a.test/", include: ["a", "b"] },
  });
  assert.deepEqual(await get("/x/c?url=http://a.test"), {
    status: 200,
    body: { url: "http://a.test/", include: [] },
  });
  assert.deepEqual(await get("/x/c?url=http://a.test&include=a&include="), {
    status: 400,
    body: { code: "INVALID_INPUT", message: "bad glob" },
  });
});

Deno.test("stringParam: absent is undefined, one value is itself, a repeated one INVALID_INPUT", () => {
  const cursor = stringParam({ description: "The cursor" });
  assert.equal(cursor.parse(undefined), undefined);
  assert.equal(cursor.parse(""), "");
  assert.equal(cursor.parse(" a b "), " a b ");
  assert.deepEqual(errorOf(() => cursor.parse(["a", "b"])), {
    code: "INVALID_INPUT",
    message: NOT_A_STRING,
  });
  assert.equal(cursor.required, false);
  assert.equal(stringParam().description, undefined, "undocumented without a description");
});

Deno.test("readParams: a header parameter is read from the headers, not the query", async () => {
  const app = new Hono();
  const params = { "x-kind": { ...stringParam(), in: "header" as const } };
  app.get("/", (c) => c.json(readParams(c, params)));
  const read = async (init: RequestInit, path = "/") =>
    await (await app.request(path, init)).json();
  assert.deepEqual(await read({ headers: { "X-Kind": "a" } }), { "x-kind": "a" });
  assert.deepEqual(await read({}, "/?x-kind=q"), {}, "the query's value is not the header's");
});
