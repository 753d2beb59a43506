import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError } from "../../../shared/contract/errors.ts";
import {
  enumParam,
  MESSAGES,
  NOT_A_STRING,
  type Params,
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
