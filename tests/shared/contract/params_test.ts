import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError } from "../../../shared/contract/errors.ts";
import {
  booleanParam,
  enumParam,
  MESSAGES,
  NOT_A_STRING,
  type Params,
  paramSchemaOf,
  rangeParam,
  readParams,
  stringParam,
  URL_PARAM,
} from "../../../shared/contract/params.ts";

/** The error `fn` throws, which must be the contract's. */
function errorOf(fn: () => unknown): { code: string | null; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail("no error");
}

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
  assert.deepEqual(paramSchemaOf(flag), { type: "boolean" });
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
  assert.deepEqual(paramSchemaOf(width), { type: "integer", minimum: 320, maximum: 3840 });

  const scale = rangeParam(1, 3, { integer: false, description: "d", message: "scale" });
  assert.equal(scale.parse("1.5"), 1.5);
  assert.equal(scale.parse("3"), 3);
  for (const raw of ["0.5", "3.01", "1.", ".5", "1e0", "Infinity", "NaN"]) {
    assert.deepEqual(errorOf(() => scale.parse(raw)).message, "scale", raw);
  }
  assert.deepEqual(paramSchemaOf(scale), { type: "number", minimum: 1, maximum: 3 });
  // A parameter that is a plain string says nothing more.
  assert.deepEqual(paramSchemaOf(URL_PARAM), {});
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
