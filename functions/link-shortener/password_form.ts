/**
 * The page a browser is shown for a password-protected link: one form posting the password
 * back to the link's own address, with inline styles only (no script, no third-party asset;
 * its Content-Security-Policy allows nothing else), never cached, never framed.
 */
import type { Context } from "hono";
import { MAX_PASSWORD_LENGTH } from "./password.ts";

/** The name of the form's password field. */
export const PASSWORD_FIELD = "password";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; " +
  "base-uri 'none'";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The form page for `code`, with `message` (a wrong password, a wait) when there is one. */
export function passwordForm(
  c: Context,
  code: string,
  status: 200 | 401 | 429,
  message?: string,
): Response {
  const notice = message ? `<p class="msg" role="alert">${escapeHtml(message)}</p>` : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Password required</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7f9;color:#111}
form{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:min(22rem,90vw)}
h1{font-size:1.2rem;margin:0 0 1rem}input,button{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.5rem}
button{background:#111;color:#fff;border:0;border-radius:4px;cursor:pointer}.msg{color:#b00020;margin:0 0 .5rem}
</style></head><body>
<form method="post" action="">
<h1>This link is password-protected</h1>
${notice}<label for="pw">Password for /${escapeHtml(code)}</label>
<input id="pw" name="${PASSWORD_FIELD}" type="password" required autofocus autocomplete="off" maxlength="${MAX_PASSWORD_LENGTH}">
<button type="submit">Open link</button>
</form></body></html>`;
  return c.html(html, status, {
    "Cache-Control": "no-store",
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
  });
}
