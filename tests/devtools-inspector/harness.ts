/**
 * Shared pieces of the devtools-inspector tests: the app over a loopback fixture server, an
 * `/inspect` call, and the placeholders that make a result comparable with an expected file.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/devtools-inspector/app.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import type { FixtureRoute, FixtureServer } from "../support/fixture_server.ts";
import { type Answer, startFetchApp } from "../support/fetch_app.ts";
import { assertMadeSince } from "../support/timestamps.ts";

/** When this module loaded: before any answer a test checks. */
const LOADED = Date.now();

/** A running app and fixture server pair. */
export interface Harness {
  fixture: FixtureServer;
  /** GET /inspect?url=<raw> (raw is sent encoded; null sends no `url` at all). */
  inspect(rawUrl: string | null): Promise<Answer>;
  close(): Promise<void>;
}

/** Starts a fixture server and the app over a policy (open, with `policy`'s overrides, by default). */
export function startHarness(
  policy: Partial<FetchPolicy> | FetchPolicy = {},
  routes: Record<string, FixtureRoute> = {},
): Harness {
  const app = startFetchApp(createApp, "/inspect", policy, routes);
  return { fixture: app.fixture, inspect: app.get, close: app.close };
}

/** Timing phases: a number of milliseconds (>= 0) becomes `{ms}`; null stays null. */
function normaliseTiming(timing: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [phase, value] of Object.entries(timing)) {
    if (value === null) out[phase] = null;
    else {
      assert.equal(typeof value, "number", phase);
      assert.ok((value as number) >= 0, `${phase} is ${value}`);
      out[phase] = "{ms}";
    }
  }
  return out;
}

/**
 * A result as the expected files hold it: the fixture origin written `{origin}` (and its port
 * `{port}`), `fetchedAt` written `{fetchedAt}` after checking it is a fresh ISO 8601 time, the
 * timings `{ms}` after checking they are non-negative numbers, and the Date header `{date}`.
 */
export function comparable(body: Record<string, unknown>, fixture: FixtureServer): unknown {
  const fetchedAt = body.fetchedAt as string;
  assert.equal(new Date(fetchedAt).toISOString(), fetchedAt, "fetchedAt is ISO 8601");
  assertMadeSince(fetchedAt, LOADED, "fetchedAt");
  const headers = { ...body.headers as Record<string, string> };
  if ("date" in headers) {
    assert.ok(!Number.isNaN(Date.parse(headers.date)), `date ${headers.date}`);
    headers.date = "{date}";
  }
  const stable = {
    ...body,
    fetchedAt: "{fetchedAt}",
    timing: normaliseTiming(body.timing as Record<string, unknown>),
    headers,
  };
  const text = JSON.stringify(stable)
    .replaceAll(fixture.origin, "{origin}")
    .replaceAll(`:${fixture.port}`, ":{port}");
  return JSON.parse(text);
}
