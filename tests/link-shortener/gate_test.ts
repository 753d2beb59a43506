/**
 * Gated links on libSQL files: a click limit holds exactly under concurrent redirects on two
 * app instances; password-protected links answer a form to browsers and take the password
 * of API clients in a header; wrong passwords are slowed down per link; info and stats need
 * the manage token; none of it is ever served from the cache, and the password is nowhere in
 * clear.
 */
import assert from "node:assert/strict";
import { FREE_ATTEMPTS } from "../../functions/link-shortener/gate.ts";
import { cacheKey } from "../../functions/link-shortener/resolve.ts";
import { linkApp, ORIGIN } from "./app_fixture.ts";

const HTML = { accept: "text/html,application/xhtml+xml" };

Deno.test("maxClicks: exactly that many of 200 concurrent redirects on two instances", async () => {
  await using fx = await linkApp();
  await using other = await linkApp({ dir: fx.dir });
  const res = await fx.shorten({ url: "https://example.com/limited", maxClicks: 37 });
  assert.equal(res.status, 201);
  const { code, maxClicks, manageToken } = await res.json();
  assert.equal(maxClicks, 37);
  // HEAD is answered but admits nothing.
  const head = await fx.app.request(`${ORIGIN}/${code}`, { method: "HEAD" });
  assert.equal(head.status, 302);
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => (i % 2 ? other : fx).get(`/${code}`)),
  );
  const found = answers.filter((r) => r.status === 302);
  assert.equal(found.length, 37);
  for (const r of found) assert.equal(r.headers.get("location"), "https://example.com/limited");
  for (const r of answers.filter((r) => r.status !== 302)) {
    assert.equal(r.status, 404);
    assert.deepEqual(await r.json(), { error: "Link expired", code: "NOT_FOUND" });
  }
  for (const r of found) await r.body?.cancel();
  const rs = await fx.db.execute({
    sql: "SELECT clicks_used FROM links WHERE code = ?",
    args: [code],
  });
  assert.equal(Number(rs.rows[0].clicks_used), 37);
  assert.equal(await fx.cache.get(cacheKey(code)), null, "a limited link is never cached");
  assert.equal(await other.cache.get(cacheKey(code)), null);
  const info = await (await fx.get(`/${code}/info`)).json();
  assert.equal(info.clicksLeft, 0);
  assert.equal(info.maxClicks, 37);
  // The stats count the admitted redirects only.
  await fx.app.clicks.flush();
  await other.app.clicks.flush();
  const stats = await (await fx.get(`/${code}/stats`)).json();
  assert.equal(stats.totalClicks, 37);
  void manageToken;
});

Deno.test("maxClicks: bad values are 400 naming it", async () => {
  await using fx = await linkApp();
  for (const maxClicks of [0, -1, 1.5, "3", 1e10]) {
    const res = await fx.shorten({ url: "https://example.com/", maxClicks });
    assert.equal(res.status, 400, String(maxClicks));
    assert.deepEqual(await res.json(), {
      error: "maxClicks must be an integer from 1 to 1000000000",
      code: "INVALID_INPUT",
    });
  }
});

Deno.test("password: API clients use X-Link-Password; the password is nowhere in clear", async () => {
  await using fx = await linkApp();
  const password = "s3cret passphrase";
  const res = await fx.shorten({ url: "https://example.com/private", password, code: "vault" });
  assert.equal(res.status, 201);
  const created = await res.json();
  assert.equal(created.passwordProtected, true);
  assert.ok(!JSON.stringify(created).includes(password));

  const none = await fx.get("/vault");
  assert.equal(none.status, 401);
  assert.deepEqual(await none.json(), { error: "Password required", code: "INVALID_INPUT" });
  const wrong = await fx.app.request(`${ORIGIN}/vault`, { headers: { "x-link-password": "nope" } });
  assert.equal(wrong.status, 401);
  assert.deepEqual(await wrong.json(), { error: "Wrong password", code: "INVALID_INPUT" });
  const right = await fx.app.request(`${ORIGIN}/vault`, {
    headers: { "x-link-password": password },
  });
  assert.equal(right.status, 302);
  assert.equal(right.headers.get("location"), "https://example.com/private");
  assert.equal(right.headers.get("cache-control"), "private, no-store");
  assert.equal(await fx.cache.get(cacheKey("vault")), null, "never cached");
  // The second right answer is not a cache hit either: still asks for the password.
  assert.equal((await fx.get("/vault")).status, 401);

  fx.db.close();
  // The database file and its write-ahead log.
  let text = "";
  for await (const entry of Deno.readDir(fx.dir)) {
    text += new TextDecoder("latin1").decode(await Deno.readFile(`${fx.dir}/${entry.name}`));
  }
  assert.ok(!text.includes(password), "the password is in the database file");
  assert.ok(text.includes("pbkdf2-sha256$"));
  assert.ok(!fx.logs.some((line) => line.includes(password)), "the password is in the logs");
});

Deno.test("password: a browser gets the form; right → 302, wrong → the form with a message", async () => {
  await using fx = await linkApp();
  await fx.shorten({ url: "https://example.com/doc", password: "hunter2", code: "doc-1" });
  const form = await fx.app.request(`${ORIGIN}/doc-1`, { headers: HTML });
  assert.equal(form.status, 200);
  assert.match(form.headers.get("content-type")!, /^text\/html/);
  assert.match(form.headers.get("content-security-policy")!, /default-src 'none'/);
  const page = await form.text();
  assert.match(page, /<form method="post" action="">/);
  assert.match(page, /name="password" type="password"/);
  assert.doesNotMatch(page, /<script|<link|src=|https?:\/\//, "no script or third-party asset");

  const post = (password: string) =>
    fx.app.request(`${ORIGIN}/doc-1`, {
      method: "POST",
      headers: { ...HTML, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password }).toString(),
    });
  const wrong = await post("hunter3");
  assert.equal(wrong.status, 401);
  assert.match(await wrong.text(), /role="alert">Wrong password</);
  const right = await post("hunter2");
  assert.equal(right.status, 302);
  assert.equal(right.headers.get("location"), "https://example.com/doc");
});

Deno.test("password: repeated wrong passwords block the link for a while (per link, in the database)", async () => {
  let now = 1_800_000_000_000;
  const clock = () => now;
  await using fx = await linkApp({ now: clock });
  await using other = await linkApp({ dir: fx.dir, now: clock });
  await fx.shorten({ url: "https://example.com/a", password: "right", code: "guarded" });
  await fx.shorten({ url: "https://example.com/b", password: "right", code: "neighbour" });
  const tryWith = (app: typeof fx, code: string, password: string) =>
    app.app.request(`${ORIGIN}/${code}`, { headers: { "x-link-password": password } });
  for (let i = 0; i < FREE_ATTEMPTS; i++) {
    const res = await tryWith(i % 2 ? other : fx, "guarded", `wrong-${i}`);
    assert.equal(res.status, 401, `attempt ${i}`);
    await res.body?.cancel();
  }
  // Blocked on both instances, even for the right password.
  for (const app of [fx, other]) {
    const blocked = await tryWith(app, "guarded", "right");
    assert.equal(blocked.status, 429);
    assert.equal(blocked.headers.get("retry-after"), "1");
    assert.deepEqual(await blocked.json(), {
      error: "Too many wrong passwords: try again in 1 s",
      code: "INVALID_INPUT",
    });
  }
  // Another link is not affected.
  assert.equal((await tryWith(fx, "neighbour", "right")).status, 302);
  // Once the block has passed, the right password opens the link and clears the count.
  now += 1_000;
  assert.equal((await tryWith(fx, "guarded", "right")).status, 302);
  const rs = await fx.db.execute("SELECT count(*) AS n FROM link_password_failures");
  assert.equal(Number(rs.rows[0].n), 0);
  // Each further failure past the free ones doubles the block: 1 s, 2 s, 4 s, 8 s, …
  const blocks: number[] = [];
  for (let i = 0; i < FREE_ATTEMPTS + 3; i++) {
    await (await tryWith(other, "guarded", "wrong")).body?.cancel();
    const row = await fx.db.execute("SELECT blocked_until FROM link_password_failures");
    const until = Number(row.rows[0].blocked_until);
    blocks.push(until === 0 ? 0 : until - now);
    now = Math.max(now, until); // wait the block out
  }
  assert.deepEqual(blocks, [0, 0, 0, 0, 1_000, 2_000, 4_000, 8_000]);
  const html = await fx.app.request(`${ORIGIN}/guarded`, {
    method: "POST",
    headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
    body: "password=wrong",
  });
  assert.equal(html.status, 401);
  const blockedForm = await fx.app.request(`${ORIGIN}/guarded`, {
    method: "POST",
    headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
    body: "password=right",
  });
  assert.equal(blockedForm.status, 429);
  assert.equal(blockedForm.headers.get("retry-after"), "16");
  assert.match(await blockedForm.text(), /Too many wrong passwords: try again in 16 s/);
});

Deno.test("password: info and stats need the manage token", async () => {
  await using fx = await linkApp();
  const { manageToken } = await (await fx.shorten({
    url: "https://example.com/x",
    password: "pw",
    code: "secret-stats",
  })).json();
  for (const path of ["/secret-stats/info", "/secret-stats/stats"]) {
    const anon = await fx.get(path);
    assert.equal(anon.status, 401, path);
    assert.deepEqual(await anon.json(), {
      error: "Missing or invalid manage token",
      code: "INVALID_INPUT",
    });
    const owner = await fx.app.request(`${ORIGIN}${path}`, {
      headers: { authorization: `Bearer ${manageToken}` },
    });
    assert.equal(owner.status, 200, path);
    const body = await owner.json();
    assert.equal(body.code, "secret-stats");
    assert.ok(!("password" in body));
  }
  const bad = await fx.shorten({ url: "https://example.com/", password: "" });
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), {
    error: "password must be a string of 1 to 256 characters",
    code: "INVALID_INPUT",
  });
});

Deno.test("utm on create and PATCH: set on the target, other parameters kept", async () => {
  await using fx = await linkApp();
  const res = await fx.shorten({
    url: "https://example.com/p?q=a%20b&utm_source=old",
    code: "tagged",
    utm: { source: "news letter", medium: "email", campaign: "spring&sale" },
  });
  assert.equal(res.status, 201);
  const { manageToken, utm } = await res.json();
  assert.deepEqual(utm, { source: "news letter", medium: "email", campaign: "spring&sale" });
  const target = "https://example.com/p?q=a%20b&utm_source=news%20letter&utm_medium=email" +
    "&utm_campaign=spring%26sale";
  assert.equal((await fx.get("/tagged")).headers.get("location"), target);

  const patch = (body: unknown) =>
    fx.app.request(`${ORIGIN}/tagged`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${manageToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  // New UTM parameters replace the old ones on the same target.
  const replaced = await patch({ utm: { source: "twitter" } });
  assert.equal(replaced.status, 200, await replaced.clone().text());
  assert.equal((await replaced.json()).url, "https://example.com/p?q=a%20b&utm_source=twitter");
  assert.equal(
    (await fx.get("/tagged")).headers.get("location"),
    "https://example.com/p?q=a%20b&utm_source=twitter",
  );
  // A new target keeps the link's UTM parameters.
  const moved = await patch({ url: "https://example.org/new?x=1" });
  assert.equal((await moved.json()).url, "https://example.org/new?x=1&utm_source=twitter");
  // null removes them.
  const cleared = await patch({ utm: null });
  assert.equal((await cleared.json()).url, "https://example.org/new?x=1");
  const info = await (await fx.get("/tagged/info")).json();
  assert.equal(info.utm, null);
  const bad = await patch({ utm: { sauce: "x" } });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /^utm must be an object/);
});
