/**
 * Shared pieces of the metadata-extractor tests: the app over a loopback fixture server, a
 * `/metadata` call, and the placeholders that make a result comparable with an expected file.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import type { FetchPolicy } from "../../shared/safe_fetch.ts";
import {
  type FixtureRoute,
  type FixtureServer,
  startFixtureServer,
} from "../support/fixture_server.ts";
import { openPolicy } from "../support/policy.ts";

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
  /** GET /metadata?url=<raw> (raw is sent as given, encoded). */
  metadata(rawUrl: string | null): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** Starts a fixture server and the app over `policy` (open by default). */
export function startHarness(
  policy: Partial<FetchPolicy> | FetchPolicy = {},
  routes: Record<string, FixtureRoute> = {},
): Harness {
  const fixture = startFixtureServer(routes);
  const full = "allowPrivate" in policy && "maxBytes" in policy && "timeoutMs" in policy
    ? policy as FetchPolicy
    : openPolicy(policy);
  const app = createApp({ fetchPolicy: full }, { log: () => {} });
  return {
    fixture,
    async metadata(rawUrl) {
      const query = rawUrl === null ? "" : `?url=${encodeURIComponent(rawUrl)}`;
      const res = await app.request(`/metadata${query}`);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      return { status: res.status, body: await res.json() };
    },
    close: () => fixture.close(),
  };
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
  assert.ok(Math.abs(Date.now() - Date.parse(fetchedAt as string)) < 60_000, "fetchedAt is now");
  const text = JSON.stringify({ ...body, fetchedAt: "{fetchedAt}" });
  return JSON.parse(text.replaceAll(origin, "{origin}"));
}
