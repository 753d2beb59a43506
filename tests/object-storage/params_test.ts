import assert from "node:assert/strict";
import { NOT_A_STRING } from "../../shared/contract/params.ts";
import {
  LIST_PARAMS,
  OBJECT_MESSAGES,
  OBJECT_PARAMS,
  PUBLIC_PATH_PARAMS,
  SIGNED_PARAMS,
  UPLOAD_PARAMS,
} from "../../functions/object-storage/params.ts";
import { errorOf } from "../support/api_error.ts";

const INVALID_KEY = { code: "INVALID_INPUT", message: OBJECT_MESSAGES.invalidKey };
const REPEATED = { code: "INVALID_INPUT", message: NOT_A_STRING };

Deno.test("key: missing is the upload's code-less body or 'Key is required'; a bad one 'Invalid key'", () => {
  const upload = UPLOAD_PARAMS.key;
  const other = OBJECT_PARAMS.key;
  assert.equal(upload.parse("photos/cat.jpg"), "photos/cat.jpg");
  assert.equal(other.parse("a b/ü.txt"), "a b/ü.txt");
  for (const raw of [undefined, ""]) {
    assert.deepEqual(errorOf(() => upload.parse(raw)), { code: null, message: "Missing key" });
    assert.deepEqual(errorOf(() => other.parse(raw)), {
      code: "INVALID_INPUT",
      message: OBJECT_MESSAGES.keyRequired,
    });
  }
  // A repeated key, a leading slash, a dot segment, a control or a bidi control character.
  for (const raw of [["a", "b"], "/a", "a/../b", "a\u0000b", "a\u202eb"]) {
    assert.deepEqual(errorOf(() => upload.parse(raw)), INVALID_KEY, JSON.stringify(raw));
    assert.deepEqual(errorOf(() => other.parse(raw)), INVALID_KEY, JSON.stringify(raw));
  }
});

Deno.test("public, cursor and a signed link's fields: any one string, never a repeated one", () => {
  for (const param of [UPLOAD_PARAMS.public, LIST_PARAMS.cursor, ...Object.values(SIGNED_PARAMS)]) {
    assert.equal(param.parse(undefined), undefined);
    assert.equal(param.parse("anything"), "anything");
    assert.deepEqual(errorOf(() => param.parse(["a", "a"])), REPEATED);
  }
});

Deno.test("Content-Type header: a media type of at most 255 characters, else 'Invalid Content-Type'", () => {
  const type = UPLOAD_PARAMS["content-type"];
  assert.equal(type.in, "header");
  assert.equal(type.parse(undefined), undefined);
  assert.equal(type.parse("text/plain; charset=utf-8"), "text/plain; charset=utf-8");
  const bad = { code: "INVALID_INPUT", message: OBJECT_MESSAGES.invalidContentType };
  for (const raw of ["", "text", "text/plain\u00e9", `a/${"b".repeat(254)}`]) {
    assert.deepEqual(errorOf(() => type.parse(raw)), bad, raw);
  }
  assert.equal(type.parse(`a/${"b".repeat(253)}`)?.length, 255);
});

Deno.test("prefix and limit: 'Invalid prefix', and limit 1-1000 in decimal digits", () => {
  assert.equal(LIST_PARAMS.prefix.parse("photos/"), "photos/");
  assert.deepEqual(errorOf(() => LIST_PARAMS.prefix.parse("a\u202eb")), {
    code: "INVALID_INPUT",
    message: OBJECT_MESSAGES.invalidPrefix,
  });
  assert.deepEqual(errorOf(() => LIST_PARAMS.prefix.parse(["a", "b"])), REPEATED);
  assert.equal(LIST_PARAMS.limit.parse(undefined), undefined);
  assert.equal(LIST_PARAMS.limit.parse("1"), 1);
  assert.equal(LIST_PARAMS.limit.parse("1000"), 1000);
  assert.equal(LIST_PARAMS.limit.parse("0007"), 7);
  const bad = { code: "INVALID_INPUT", message: OBJECT_MESSAGES.invalidLimit };
  for (const raw of ["0", "1001", "1e3", "0x10", " 5", "-1", "10000", ""]) {
    assert.deepEqual(errorOf(() => LIST_PARAMS.limit.parse(raw)), bad, raw);
  }
  assert.deepEqual(errorOf(() => LIST_PARAMS.limit.parse(["1", "2"])), REPEATED);
});

Deno.test("public path key: passed on as routed (the handler decodes the raw path); none is Invalid key", () => {
  assert.equal(PUBLIC_PATH_PARAMS.key.parse("photos%2Fcat.jpg"), "photos%2Fcat.jpg");
  for (const raw of [undefined, ""]) {
    assert.deepEqual(errorOf(() => PUBLIC_PATH_PARAMS.key.parse(raw)), INVALID_KEY);
  }
});
