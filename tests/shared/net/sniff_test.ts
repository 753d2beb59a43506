/** shared/net/sniff.ts: the one body sniffer (declared type checked against the first bytes). */
import assert from "node:assert/strict";
import { looksBinary, sniffImage, sniffKind } from "../../../shared/net/sniff.ts";

const text = (s: string) => new TextEncoder().encode(s);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]);

Deno.test("sniffImage names the format from the magic bytes", () => {
  assert.equal(sniffImage(PNG), "png");
  assert.equal(sniffImage(JPEG), "jpeg");
  assert.equal(sniffImage(text("GIF89a")), "gif");
  assert.equal(sniffImage(text("RIFF\0\0\0\0WEBPVP8 ")), "webp");
  assert.equal(sniffImage(new Uint8Array([0, 0, 1, 0, 1, 0])), "ico");
  assert.equal(sniffImage(text("<!doctype html>")), null);
});

Deno.test("sniffKind: the declared type, where the bytes do not contradict it", () => {
  const rows: [string | null, Uint8Array, string][] = [
    ["text/html", text("<p>hi"), "html"],
    ["application/xhtml+xml", text("<html/>"), "html"],
    ["application/json", text("{}"), "json"],
    ["application/manifest+json", text("{}"), "json"],
    ["text/css", text("a{}"), "text"],
    ["application/javascript", text("x()"), "text"],
    ["application/x-yaml", text("a: 1"), "text"],
    ["image/png", PNG, "image"],
    ["image/svg+xml", text("<svg/>"), "image"],
    ["video/mp4", new Uint8Array([0, 0, 0, 0x18]), "video"],
    ["audio/mpeg", text("ID3"), "audio"],
    ["application/pdf", text("%PDF-1.7"), "binary"],
  ];
  for (const [type, body, kind] of rows) assert.equal(sniffKind(type, body), kind, `${type}`);
});

Deno.test("sniffKind: the bytes win where they contradict the type", () => {
  assert.equal(sniffKind("text/html", PNG), "image");
  assert.equal(sniffKind(null, PNG), "image");
  assert.equal(sniffKind("application/octet-stream", JPEG), "image");
  assert.equal(sniffKind("text/html", ZIP), "binary");
  assert.equal(sniffKind(null, text("<!DOCTYPE html><title>x</title>")), "html");
  assert.equal(sniffKind("application/octet-stream", text("\ufeff<html>")), "html");
  assert.equal(sniffKind(null, text("plain words")), "text");
});

Deno.test("UTF-16 text is not binary although it is full of NULs", () => {
  const utf16 = new Uint8Array([...text("<p>hi</p>")].flatMap((b) => [b, 0]));
  assert.equal(looksBinary(utf16, "utf-16le"), false);
  assert.equal(looksBinary(utf16, "utf-8"), true);
  assert.equal(sniffKind("text/html", utf16, "utf-16le"), "html");
  assert.equal(sniffKind("text/html", utf16, "utf-8"), "binary");
});
