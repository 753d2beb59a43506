/** What a body is: the declared type checked against the first bytes. */
import assert from "node:assert/strict";
import { bodyKind } from "../../functions/devtools-inspector/body_kind.ts";

const text = (s: string) => new TextEncoder().encode(s);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]);

Deno.test("declared types are believed when the bytes agree", () => {
  assert.equal(bodyKind("text/html", text("<p>hi"), "utf-8"), "html");
  assert.equal(bodyKind("application/xhtml+xml", text("<html/>"), "utf-8"), "html");
  assert.equal(bodyKind("application/json", text("{}"), "utf-8"), "json");
  assert.equal(bodyKind("application/manifest+json", text("{}"), "utf-8"), "json");
  assert.equal(bodyKind("text/css", text("a{}"), "utf-8"), "text");
  assert.equal(bodyKind("application/javascript", text("x()"), "utf-8"), "text");
  assert.equal(bodyKind("image/png", PNG, "utf-8"), "image");
  assert.equal(bodyKind("video/mp4", new Uint8Array([0, 0, 0, 0x18]), "utf-8"), "media");
  assert.equal(bodyKind("application/pdf", text("%PDF-1.7"), "utf-8"), "binary");
  assert.equal(bodyKind("text/html", new Uint8Array(), "utf-8"), "empty");
});

Deno.test("the bytes win over a wrong or missing type", () => {
  assert.equal(bodyKind("text/html", PNG, "utf-8"), "image");
  assert.equal(bodyKind(null, PNG, "utf-8"), "image");
  assert.equal(bodyKind("text/html", ZIP, "utf-8"), "binary");
  assert.equal(bodyKind(null, text("<!DOCTYPE html><title>x</title>"), "utf-8"), "html");
  assert.equal(bodyKind("application/octet-stream", text("\ufeff<html>"), "utf-8"), "html");
  assert.equal(bodyKind(null, text("plain words"), "utf-8"), "text");
});

Deno.test("UTF-16 text has NUL bytes without being binary", () => {
  const utf16 = new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x70, 0, 0x3e, 0]);
  assert.equal(bodyKind("text/html", utf16, "utf-16le"), "html");
  assert.equal(bodyKind("text/html", utf16, "utf-8"), "binary");
});
