/**
 * Shared pieces of the metadata-extractor tests: the app over a loopback fixture server, a
 * `/metadata` call, and the placeholders that make a result comparable with an expected file.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import type { FixtureRoute, FixtureServer } from "../support/fixture_server.ts";
import { type Answer, startFetchApp } from "../support/fetch_app.ts";
import { assertMadeSince } from "../support/timestamps.ts";

/** When this module loaded: before any answer a test checks. */
const LOADED = Date.now();

/** Where the fixture pages live. */
export const PAGES_DIR = new URL("../fixtures/pages/", import.meta.url);
/** Where the expected results live: `expected/<fixture file name>.json`. */
export const EXPECTED_DIR = new URL("./expected/", import.meta.url);

/**
 * Query options per fixture (fixture_server.ts): the latin-1 page is served without a charset
 * in Content-Type, so its `<meta charset>` decides, as it would for a server that sends none.
 */
export const SERVE_OPTIONS: Record<string, string> = {
  "latin1.html": "?type=text/html",
};

/** A running app and fixture server pair. */
export interface Harness {
  fixture: FixtureServer;
  /** GET /metadata?url=<raw> (raw is sent encoded; null sends no `url` at all). */
  metadata(rawUrl: string | null): Promise<Answer>;
  close(): Promise<void>;
}

/** Starts a fixture server and the app over a policy (open, with `policy`'s overrides, by default). */
export function startHarness(
  policy: Partial<FetchPolicy> | FetchPolicy = {},
  routes: Record<string, FixtureRoute> = {},
): Harness {
  const app = startFetchApp(createApp, "/metadata", policy, routes);
  return { fixture: app.fixture, metadata: app.get, close: app.close };
}

/** The fixture pages, sorted by name. */
export function fixtureNames(): string[] {
  return [...Deno.readDirSync(PAGES_DIR)].filter((e) => e.isFile).map((e) => e.name).sort();
}

/**
 * A result as the expected files hold it: the random fixture origin written `{origin}` and
 * `fetchedAt` written `{fetchedAt}` (after checking it is a fresh ISO 8601 time).
 */
export function comparable(body: Record<string, unknown>, origin: string): unknown {
  const fetchedAt = body.fetchedAt;
  assert.equal(typeof fetchedAt, "string");
  assert.equal(new Date(fetchedAt as string).toISOString(), fetchedAt, "fetchedAt is ISO 8601");
  assertMadeSince(fetchedAt as string, LOADED, "fetchedAt");
  const text = JSON.stringify({ ...body, fetchedAt: "{fetchedAt}" });
  return JSON.parse(text.replaceAll(origin, "{origin}"));
}
