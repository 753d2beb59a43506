/** The password form page: self-contained, escaped, never cached or framed. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { PASSWORD_FIELD, passwordForm } from "../../functions/link-shortener/password_form.ts";

Deno.test("passwordForm: a form posting back to the link, the message escaped, strict headers", async () => {
  const app = new Hono();
  app.get("/:code", (c) => passwordForm(c, c.req.param("code"), 401, `Wrong <b>"password"</b>`));
  const res = await app.request("/a<b");
  assert.equal(res.status, 401);
  assert.match(res.headers.get("content-type")!, /^text\/html; charset=UTF-8$/i);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.match(res.headers.get("content-security-policy")!, /^default-src 'none'; style-src/);
  const html = await res.text();
  assert.match(html, /<form method="post" action="">/);
  assert.ok(html.includes(`name="${PASSWORD_FIELD}" type="password"`));
  assert.ok(html.includes("Wrong &#60;b&#62;&#34;password&#34;&#60;/b&#62;"));
  assert.ok(!html.includes("<b>"));
  assert.ok(html.includes("/a&#60;b"));
  assert.doesNotMatch(html, /<script|<link|<img|url\(/);
});
