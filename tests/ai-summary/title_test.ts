/** The clean title (functions/ai-summary/title.ts). */
import assert from "node:assert/strict";
import { cleanTitle, stripSiteName } from "../../functions/ai-summary/title.ts";
import { parseTree } from "../../functions/ai-summary/tree.ts";

const title = async (head: string, body = "", url?: string) =>
  cleanTitle(await parseTree(`<html><head>${head}</head><body>${body}</body></html>`), url);

Deno.test("cleanTitle: the site suffix or prefix goes when it repeats the site's name", async () => {
  assert.equal(
    await title(
      `<title>Mali talks open - BBC News</title><meta property="og:site_name" content="BBC News">`,
    ),
    "Mali talks open",
  );
  assert.equal(
    await title(`<title>Why CIOs quit | CIO</title>`, "", "https://www.cio.com/article/1"),
    "Why CIOs quit",
  );
  assert.equal(
    await title(
      `<title>Example Times » A story: in two parts</title>`,
      "",
      "https://exampletimes.com/",
    ),
    "A story: in two parts",
  );
  assert.equal(
    await title(`<title>Docs – Guide – Acme</title><meta name="application-name" content="Acme">`),
    "Docs – Guide",
  );
});

Deno.test("cleanTitle: a part that does not name the site stays", async () => {
  assert.equal(
    await title(`<title>Rust - a language empowering everyone</title>`, "", "https://example.org/"),
    "Rust - a language empowering everyone",
  );
  assert.equal(await title(`<title>Well-known - text</title>`), "Well-known - text");
});

Deno.test("cleanTitle: an empty or missing <title> falls back to og:title, then the first <h1>", async () => {
  assert.equal(
    await title(`<title>  </title><meta property="og:title" content="From OG">`, "<h1>H</h1>"),
    "From OG",
  );
  assert.equal(await title(`<title></title>`, "<h1> </h1><h1>The  heading</h1>"), "The heading");
  assert.equal(await title("", "<svg><title>icon</title></svg><p>x</p>"), null);
});

Deno.test("stripSiteName: never leaves an empty title", () => {
  assert.equal(stripSiteName("BBC News - BBC News", ["BBC News"]), "BBC News");
  assert.equal(stripSiteName("Home | Acme", ["Acme"]), "Home");
  assert.equal(stripSiteName("No separator here", ["here"]), "No separator here");
});

Deno.test("stripSiteName: names compare by letters and digits, accents and case aside, ASCII or not", () => {
  assert.equal(stripSiteName("Story - Le Monde.fr", ["LE MONDE_FR"]), "Story");
  assert.equal(
    stripSiteName("Story | Süddeutsche Zeitung", ["sueddeutsche"]),
    "Story | Süddeutsche Zeitung",
  );
  assert.equal(stripSiteName("Story | Süddeutsche Zeitung", ["Süddeutsche"]), "Story");
  assert.equal(stripSiteName("Story | Sud Ouest", ["Süd-Ouest"]), "Story");
  assert.equal(stripSiteName("Story | Ｎｅｗｓ２４", ["news24"]), "Story");
  assert.equal(stripSiteName("Story | News 24", ["news-25"]), "Story | News 24");
});
