/** Set-Cookie lines described with every attribute and never a value. */
import assert from "node:assert/strict";
import { defaultCookiePath, describeCookies } from "../../functions/devtools-inspector/cookies.ts";
import { startHarness } from "./harness.ts";

const PAGE = new URL("https://shop.example/account/settings?tab=1");

Deno.test("every attribute is read; names and cases are normalised as browsers store them", () => {
  const [c] = describeCookies([
    "sid=abc; Domain=.Shop.Example; Path=/account; Expires=Wed, 21 Oct 2037 07:28:00 GMT; " +
    "Max-Age=3600; Secure; HttpOnly; SameSite=lax; Partitioned",
  ], PAGE);
  assert.deepEqual(c, {
    name: "sid",
    domain: "shop.example",
    hostOnly: false,
    path: "/account",
    expires: "2037-10-21T07:28:00.000Z",
    maxAge: 3600,
    session: false,
    secure: true,
    httpOnly: true,
    sameSite: "Lax",
    partitioned: true,
  });
});

Deno.test("defaults: host-only, the request's directory as path, a session cookie", () => {
  const [c] = describeCookies(["pref=1"], PAGE);
  assert.deepEqual(c, {
    name: "pref",
    domain: "shop.example",
    hostOnly: true,
    path: "/account",
    expires: null,
    maxAge: null,
    session: true,
    secure: false,
    httpOnly: false,
    sameSite: null,
    partitioned: false,
  });
  assert.equal(defaultCookiePath(new URL("https://a.example/")), "/");
  assert.equal(defaultCookiePath(new URL("https://a.example/file")), "/");
  assert.equal(defaultCookiePath(new URL("https://a.example/a/b/c")), "/a/b");
});

Deno.test("odd attributes: SameSite kept as sent when unknown, bad dates and paths ignored", () => {
  const cookies = describeCookies([
    "a=1; SameSite=NONE",
    "b=2; SameSite=Relaxed",
    "c=3; SameSite",
    "d=4; Expires=someday; Path=relative",
    "e=5; Max-Age=0",
  ], PAGE);
  assert.deepEqual(cookies.map((c) => c.sameSite), ["None", "Relaxed", "", null, null]);
  assert.equal(cookies[3].expires, null);
  assert.equal(cookies[3].session, true);
  assert.equal(cookies[3].path, "/account"); // a path not starting with "/" is the default
  assert.equal(cookies[4].maxAge, 0); // expires at once: a deletion
  assert.equal(cookies[4].session, false);
});

Deno.test("values never appear, however the line is written", () => {
  const lines = [
    "token=s3cr3t-value-1; Path=/",
    'quoted="s3cr3t-value-2"; Secure',
    "eq=s3cr3t=value=3; HttpOnly",
    "enc=s3cr3t%20value%204",
    "bad=%E0%A4%A; Path=/", // a broken escape must not be logged or decoded
  ];
  const out = JSON.stringify(describeCookies(lines, PAGE));
  assert.doesNotMatch(out, /s3cr3t|%E0/);
  assert.deepEqual(describeCookies(lines, PAGE).map((c) => c.name), [
    "token",
    "quoted",
    "eq",
    "enc",
    "bad",
  ]);
  assert.ok(describeCookies(lines, PAGE).every((c) => !("value" in c)));
});

Deno.test("through /inspect: cookies listed, Set-Cookie left out of headers and values nowhere", async () => {
  const h = startHarness({}, {
    "/login": () => {
      const headers = new Headers({ "content-type": "text/html" });
      headers.append("set-cookie", "session=V4LUE-ONE; Path=/; HttpOnly");
      headers.append("set-cookie", "csrftoken=V4LUE-TWO; Path=/; SameSite=Strict");
      return new Response("<!doctype html><title>Log in</title>", { headers });
    },
  });
  try {
    const { status, body } = await h.inspect(h.fixture.url("/login"));
    assert.equal(status, 200);
    assert.doesNotMatch(JSON.stringify(body), /V4LUE/);
    assert.equal("set-cookie" in (body.headers as object), false);
    assert.deepEqual((body.cookies as { name: string }[]).map((c) => c.name), [
      "session",
      "csrftoken",
    ]);
    const cookies = (body.security as { checks: { id: string; result: string }[] }).checks
      .find((c) => c.id === "cookies");
    assert.equal(cookies?.result, "cookies-session-without-secure-flag");
  } finally {
    await h.close();
  }
});
