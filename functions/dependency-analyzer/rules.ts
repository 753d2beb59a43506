/**
 * The detection table: every way the analyzer recognises a library, framework or platform.
 * One entry per pattern; add a row here to teach the analyzer something new, no engine
 * change needed. Each row carries an example that the unit tests run it against.
 *
 * What a rule looks at (`on`):
 * - `url`: every absolute URL the page loads (script src, stylesheet href, preload href,
 *   import-map target) and every URL a manifest declares. Iframes are left out: an embed is
 *   a service, not a dependency.
 * - `generator`: the content of `<meta name="generator">`.
 * - `selector`: a CSS selector over the parsed page; `versionAttr` reads the version from an
 *   attribute of the first matching element.
 * - `html`: a regular expression over the raw page text (for inline markers such as
 *   `window.__NUXT__` that no selector reaches).
 *
 * A regular expression may name the library with a `name` group and the version with a
 * `version` group; otherwise `name` is fixed and the version is null. Names are npm package
 * names wherever the thing is an npm package (so a page's libraries compare with its
 * package.json), display names otherwise (`WordPress`).
 */

/** What a rule inspects. */
export type RuleTarget = "url" | "generator" | "selector" | "html";

/** One detection pattern. */
export interface Rule {
  /** Stable identifier, reported in each detection's evidence. */
  id: string;
  /** What the rule inspects. */
  on: RuleTarget;
  /** `url`, `generator`, `html`: the pattern; groups `name` and `version` are read if present. */
  pattern?: RegExp;
  /** `selector`: the CSS selector. */
  selector?: string;
  /** `selector`: the attribute of the first match that holds the version. */
  versionAttr?: string;
  /** The library's name, unless the pattern captures it. */
  name?: string;
  /** 0–100: how sure a match makes us (a library's confidence is the highest of its evidence). */
  confidence: number;
  /** Libraries this one always brings along (Next.js runs on React). */
  implies?: string[];
  /** `generator` rules: applies only when no other generator rule matched. */
  fallback?: boolean;
  /** An input the rule must match, and what it must detect (checked by the unit tests). */
  example: { input: string; name: string; version: string | null };
}

/** A version as CDN paths and file names write it: `3.7.1`, `4`, `1.0.0-beta.2`, `v12.6.1`. */
const V = String.raw`v?\d+(?:\.\d+)*(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?`;
/** An npm package name, scoped or not. */
const PKG = String.raw`(?:@[^/@?#]+/)?[^/@?#]+`;
/** File names too generic to name a library (`main-1.2.0.js` is an app bundle). */
const GENERIC =
  "main|app|index|bundle|chunk|vendors?|runtime|polyfills?|common|styles?|theme|scripts?";

/**
 * One word of a file name: starts with a letter, and is not itself a version (`v2` in
 * `modernizr-v2.7.1.min.js` belongs to the version, not the name).
 */
const NAME_SEGMENT = String.raw`(?!v\d)[a-z][a-z0-9]*`;
/** Build markers that may sit before or after the version (`jquery.min.1.8.2.js`). */
const BUILD_SUFFIX = "min|slim|pack|packed|bundle|umd|esm|prod|production|custom";

/**
 * A case-insensitive pattern written as a raw template (backslashes as in a regex literal),
 * so the shared fragments above can be spliced in with `${V}`.
 */
function re(strings: TemplateStringsArray, ...parts: string[]): RegExp {
  return new RegExp(String.raw(strings, ...parts), "i");
}

/** The table. Order does not matter; every matching rule contributes evidence. */
export const RULES: readonly Rule[] = [
  // --- CDN URL patterns: the name and version are in the path ------------------------------
  {
    id: "cdn-jsdelivr-npm",
    on: "url",
    pattern:
      re`^https?://(?:cdn|fastly|gcore|testingcf)\.jsdelivr\.net/npm/(?<name>${PKG})(?:@(?<version>[^/?#]+))?`,
    confidence: 100,
    example: {
      input: "https://cdn.jsdelivr.net/npm/swiper@11.0.5/swiper-bundle.min.js",
      name: "swiper",
      version: "11.0.5",
    },
  },
  {
    id: "cdn-unpkg",
    on: "url",
    pattern: re`^https?://unpkg\.com/(?<name>${PKG})(?:@(?<version>[^/?#]+))?`,
    confidence: 100,
    example: {
      input: "https://unpkg.com/htm@3.1.1/dist/htm.module.js",
      name: "htm",
      version: "3.1.1",
    },
  },
  {
    id: "cdn-cdnjs",
    on: "url",
    pattern: re`^https?://cdnjs\.cloudflare\.com/ajax/libs/(?<name>[^/?#]+)/(?<version>[^/?#]+)/`,
    confidence: 100,
    example: {
      input: "https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js",
      name: "lodash",
      version: "4.17.21",
    },
  },
  {
    id: "cdn-code-jquery",
    on: "url",
    pattern:
      re`^https?://code\.jquery\.com/(?<name>jquery(?:-migrate)?)-(?<version>${V})(?:\.slim)?(?:\.min)?\.js`,
    confidence: 100,
    example: {
      input: "https://code.jquery.com/jquery-3.7.1.min.js",
      name: "jquery",
      version: "3.7.1",
    },
  },
  {
    id: "cdn-code-jquery-ui",
    on: "url",
    pattern: re`^https?://code\.jquery\.com/ui/(?<version>${V})/`,
    name: "jquery-ui",
    confidence: 100,
    example: {
      input: "https://code.jquery.com/ui/1.13.2/jquery-ui.min.js",
      name: "jquery-ui",
      version: "1.13.2",
    },
  },
  {
    id: "cdn-google-hosted",
    on: "url",
    pattern: re`^https?://ajax\.googleapis\.com/ajax/libs/(?<name>[^/?#]+)/(?<version>[^/?#]+)/`,
    confidence: 100,
    example: {
      input: "https://ajax.googleapis.com/ajax/libs/webfont/1.6.26/webfont.js",
      name: "webfontloader",
      version: "1.6.26",
    },
  },
  {
    id: "cdn-bootstrapcdn",
    on: "url",
    pattern:
      re`^https?://(?:maxcdn|stackpath|netdna)\.bootstrapcdn\.com/(?<name>font-awesome|bootstrap|twitter-bootstrap)/(?<version>${V})/`,
    confidence: 100,
    example: {
      input: "https://maxcdn.bootstrapcdn.com/font-awesome/4.7.0/css/font-awesome.min.css",
      name: "font-awesome",
      version: "4.7.0",
    },
  },
  {
    id: "cdn-esm-sh",
    on: "url",
    pattern: re`^https?://esm\.sh/(?:v\d+/|stable/)?(?<name>${PKG})(?:@(?<version>[^/?#]+))?`,
    confidence: 100,
    example: { input: "https://esm.sh/preact@10.19.3/hooks", name: "preact", version: "10.19.3" },
  },
  {
    id: "cdn-skypack",
    on: "url",
    pattern: re`^https?://cdn\.skypack\.dev/(?:-/)?(?<name>${PKG})(?:@(?<version>${V}))?`,
    confidence: 100,
    example: {
      input: "https://cdn.skypack.dev/canvas-confetti@1.9.2",
      name: "canvas-confetti",
      version: "1.9.2",
    },
  },
  {
    id: "cdn-deno-land-x",
    on: "url",
    pattern: re`^https?://deno\.land/x/(?<name>[^/@?#]+)(?:@(?<version>[^/?#]+))?`,
    confidence: 100,
    example: { input: "https://deno.land/x/oak@v12.6.1/mod.ts", name: "oak", version: "12.6.1" },
  },

  // --- Versioned file names: jquery-3.7.1.min.js -------------------------------------------
  {
    id: "versioned-file-name",
    on: "url",
    pattern:
      re`/(?!(?:${GENERIC})[-.@]v?\d)(?<name>${NAME_SEGMENT}(?:[.-]${NAME_SEGMENT})*?)(?:[.-](?:${BUILD_SUFFIX}))*[-.@](?<version>v?\d+\.\d+(?:\.\d+)?(?:-[a-z]+(?:\.\d+)*)?)(?:[.-](?:${BUILD_SUFFIX}))*\.(?:m?js|css)(?:[?#]|$)`,
    confidence: 75,
    example: {
      input: "https://example.com/js/vendor/bootstrap-5.3.2.min.js?ver=5.3.2",
      name: "bootstrap",
      version: "5.3.2",
    },
  },

  // --- Hosted services loaded as scripts or stylesheets -----------------------------------
  {
    id: "google-analytics-gtag",
    on: "url",
    pattern: re`^https?://www\.googletagmanager\.com/gtag/js`,
    name: "Google Analytics",
    confidence: 100,
    example: {
      input: "https://www.googletagmanager.com/gtag/js?id=G-XXXX",
      name: "Google Analytics",
      version: null,
    },
  },
  {
    id: "google-tag-manager",
    on: "url",
    pattern: re`^https?://www\.googletagmanager\.com/gtm\.js`,
    name: "Google Tag Manager",
    confidence: 100,
    example: {
      input: "https://www.googletagmanager.com/gtm.js?id=GTM-XXXX",
      name: "Google Tag Manager",
      version: null,
    },
  },
  {
    id: "google-fonts",
    on: "url",
    // The stylesheet, or only a preconnect / dns-prefetch to the font files' origin.
    pattern: re`^https?://fonts\.(?:googleapis\.com/css2?\?|gstatic\.com/?$)`,
    name: "Google Fonts",
    confidence: 100,
    example: {
      input: "https://fonts.googleapis.com/css2?family=Inter&display=swap",
      name: "Google Fonts",
      version: null,
    },
  },

  // --- <meta name="generator"> -------------------------------------------------------------
  {
    id: "generator-wordpress",
    on: "generator",
    pattern: re`^WordPress(?![\w.])(?:\s+(?<version>${V}))?`,
    name: "WordPress",
    confidence: 100,
    example: { input: "WordPress 6.4.2", name: "WordPress", version: "6.4.2" },
  },
  {
    id: "generator-drupal",
    on: "generator",
    pattern: re`^Drupal(?![\w.])(?:\s+(?<version>${V}))?`,
    name: "Drupal",
    confidence: 100,
    example: { input: "Drupal 10 (https://www.drupal.org)", name: "Drupal", version: "10" },
  },
  {
    id: "generator-hugo",
    on: "generator",
    pattern: re`^Hugo(?![\w.])(?:\s+(?<version>${V}))?`,
    name: "Hugo",
    confidence: 100,
    example: { input: "Hugo 0.121.1", name: "Hugo", version: "0.121.1" },
  },
  {
    id: "generator-gatsby",
    on: "generator",
    pattern: re`^Gatsby(?![\w.])(?:\s+(?<version>${V}))?`,
    name: "gatsby",
    confidence: 100,
    implies: ["react"],
    example: { input: "Gatsby 5.13.1", name: "gatsby", version: "5.13.1" },
  },
  {
    id: "generator-astro",
    on: "generator",
    pattern: re`^Astro(?![\w.])(?:\s+(?<version>${V}))?`,
    name: "astro",
    confidence: 100,
    example: { input: "Astro v4.0.7", name: "astro", version: "4.0.7" },
  },
  {
    id: "generator-nextjs",
    on: "generator",
    pattern: re`^Next\.js(?![\w.])(?:\s+(?<version>${V}))?`,
    name: "next",
    confidence: 100,
    implies: ["react"],
    example: { input: "Next.js", name: "next", version: null },
  },
  {
    id: "generator-other",
    on: "generator",
    pattern:
      re`^(?<name>[A-Za-z][\w.!'&+ -]*?)(?:\s+v?(?<version>\d+(?:\.\d+)*))?(?:\s*[-–(|,;].*)?$`,
    confidence: 50,
    fallback: true,
    example: { input: "Ghost 5.75", name: "Ghost", version: "5.75" },
  },

  // --- Markup signatures of frameworks and platforms ----------------------------------------
  {
    id: "nextjs-data",
    on: "selector",
    selector: "script#__NEXT_DATA__",
    name: "next",
    confidence: 100,
    implies: ["react"],
    example: {
      input: '<script id="__NEXT_DATA__" type="application/json">{}</script>',
      name: "next",
      version: null,
    },
  },
  {
    id: "nextjs-static-path",
    on: "url",
    pattern: re`/_next/static/`,
    name: "next",
    confidence: 75,
    implies: ["react"],
    example: {
      input: "https://example.com/_next/static/chunks/main-1a2b.js",
      name: "next",
      version: null,
    },
  },
  {
    id: "nuxt-root",
    on: "selector",
    selector: "#__nuxt, script#__NUXT_DATA__",
    name: "nuxt",
    confidence: 100,
    implies: ["vue"],
    example: { input: '<div id="__nuxt"></div>', name: "nuxt", version: null },
  },
  {
    id: "nuxt-state",
    on: "html",
    pattern: re`window\.__NUXT__\s*=`,
    name: "nuxt",
    confidence: 100,
    implies: ["vue"],
    example: { input: "<script>window.__NUXT__={}</script>", name: "nuxt", version: null },
  },
  {
    id: "nuxt-static-path",
    on: "url",
    pattern: re`/_nuxt/`,
    name: "nuxt",
    confidence: 75,
    implies: ["vue"],
    example: { input: "https://example.com/_nuxt/entry.3f2a.js", name: "nuxt", version: null },
  },
  {
    id: "gatsby-root",
    on: "selector",
    selector: "#___gatsby",
    name: "gatsby",
    confidence: 100,
    implies: ["react"],
    example: { input: '<div id="___gatsby"></div>', name: "gatsby", version: null },
  },
  {
    id: "angular-ng-version",
    on: "selector",
    selector: "[ng-version]",
    versionAttr: "ng-version",
    name: "@angular/core",
    confidence: 100,
    example: {
      input: '<app-root ng-version="17.0.8"></app-root>',
      name: "@angular/core",
      version: "17.0.8",
    },
  },
  {
    id: "angularjs-ng-app",
    on: "selector",
    selector: "[ng-app], [data-ng-app]",
    name: "angular",
    confidence: 75,
    example: { input: '<html ng-app="shop">', name: "angular", version: null },
  },
  {
    id: "react-root-attr",
    on: "selector",
    selector: "[data-reactroot]",
    name: "react",
    confidence: 100,
    example: { input: '<div data-reactroot=""></div>', name: "react", version: null },
  },
  {
    id: "vue-app-attr",
    on: "selector",
    selector: "[data-v-app], [data-server-rendered]",
    name: "vue",
    confidence: 100,
    example: { input: '<div id="app" data-v-app=""></div>', name: "vue", version: null },
  },
  {
    id: "vue-scoped-style",
    on: "html",
    pattern: re`\sdata-v-[0-9a-f]{8}[\s=>]`,
    name: "vue",
    confidence: 75,
    example: { input: '<div class="card" data-v-7ba5bd90>', name: "vue", version: null },
  },
  {
    id: "svelte-hash-attr",
    on: "selector",
    selector: "[data-svelte-h]",
    name: "svelte",
    confidence: 100,
    example: { input: '<p data-svelte-h="svelte-1x2y3z">Hi</p>', name: "svelte", version: null },
  },
  {
    id: "svelte-class",
    on: "html",
    pattern: re`class="[^"]*\bsvelte-[a-z0-9]{5,8}\b`,
    name: "svelte",
    confidence: 75,
    example: { input: '<h1 class="title svelte-1k2j3h4">', name: "svelte", version: null },
  },
  {
    id: "sveltekit-boot",
    on: "html",
    pattern: re`__sveltekit_[a-z0-9]+`,
    name: "@sveltejs/kit",
    confidence: 100,
    implies: ["svelte"],
    example: {
      input: "<script>__sveltekit_1a2b3c = {}</script>",
      name: "@sveltejs/kit",
      version: null,
    },
  },
  {
    id: "sveltekit-immutable-path",
    on: "url",
    pattern: re`/_app/immutable/`,
    name: "@sveltejs/kit",
    confidence: 75,
    implies: ["svelte"],
    example: {
      input: "https://example.com/_app/immutable/entry/start.4d2c.js",
      name: "@sveltejs/kit",
      version: null,
    },
  },
  {
    id: "astro-island",
    on: "selector",
    selector: "astro-island, [data-astro-cid], style[data-astro-cid]",
    name: "astro",
    confidence: 100,
    example: { input: '<astro-island uid="Z1"></astro-island>', name: "astro", version: null },
  },
  {
    id: "astro-cid-attr",
    on: "html",
    pattern: re`\sdata-astro-cid-[a-z0-9]+`,
    name: "astro",
    confidence: 100,
    example: { input: "<main data-astro-cid-j7pv25f6>", name: "astro", version: null },
  },
  {
    id: "remix-context",
    on: "html",
    pattern: re`window\.__remix(?:Context|Manifest|RouteModules)\b`,
    name: "@remix-run/react",
    confidence: 100,
    implies: ["react"],
    example: {
      input: "<script>window.__remixContext = {}</script>",
      name: "@remix-run/react",
      version: null,
    },
  },
  {
    id: "wordpress-paths",
    on: "url",
    pattern: re`/wp-(?:content|includes)/`,
    name: "WordPress",
    confidence: 75,
    example: {
      input: "https://example.com/wp-content/themes/x/style.css",
      name: "WordPress",
      version: null,
    },
  },
  {
    id: "shopify-cdn",
    on: "url",
    pattern: re`^https?://cdn\.shopify\.com/`,
    name: "Shopify",
    confidence: 100,
    example: {
      input: "https://cdn.shopify.com/s/files/1/0001/t/1/assets/theme.js",
      name: "Shopify",
      version: null,
    },
  },
  {
    id: "shopify-theme",
    on: "html",
    pattern: re`\bShopify\.(?:theme|shop)\s*=`,
    name: "Shopify",
    confidence: 100,
    example: {
      input: '<script>Shopify.shop = "x.myshopify.com";</script>',
      name: "Shopify",
      version: null,
    },
  },
  {
    id: "drupal-settings",
    on: "selector",
    selector: 'script[data-drupal-selector="drupal-settings-json"]',
    name: "Drupal",
    confidence: 100,
    example: {
      input:
        '<script type="application/json" data-drupal-selector="drupal-settings-json">{}</script>',
      name: "Drupal",
      version: null,
    },
  },
  {
    id: "drupal-files-path",
    on: "url",
    pattern: re`/sites/(?:default|all)/(?:files|themes|modules)/`,
    name: "Drupal",
    confidence: 50,
    example: {
      input: "https://example.com/sites/default/files/css/css_x.css",
      name: "Drupal",
      version: null,
    },
  },
];

/**
 * Names as CDNs spell them → the npm package name (cdnjs and Google Hosted Libraries use
 * their own catalogue names). Keys are lowercase.
 */
export const ALIASES: Readonly<Record<string, string>> = {
  "lodash.js": "lodash",
  "underscore.js": "underscore",
  "backbone.js": "backbone",
  "moment.js": "moment",
  "three.js": "three",
  "twitter-bootstrap": "bootstrap",
  "vue.js": "vue",
  "webfont": "webfontloader",
  "jqueryui": "jquery-ui",
  // RequireJS ships as require.js / require-2.1.2.js; npm "require" is another package.
  "require": "requirejs",
};
