/**
 * The fetch-and-parse experiments (`/analyze`, `/metadata`, `/inspect`) under test: an app over a
 * loopback fixture server, one call of its route, and the contract's input rows that every one
 * of them must pass alike (invalid URL, private literal, refused connection).
 */
import assert from "node:assert/strict";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { type FixtureRoute, type FixtureServer, startFixtureServer } from "./fixture_server.ts";
import { guardedPolicy, openPolicy } from "./policy.ts";

/** What a fetch-and-parse experiment's app.ts exports. */
export type CreateFetchApp = (
  bindings: { fetchPolicy: FetchPolicy },
  options: { log: (line: string) => void },
) => { request(path: string): Response | Promise<Response> };

/** A route's answer: status and parsed JSON body. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A running app and fixture server pair. */
export interface FetchApp {
  fixture: FixtureServer;
  /** GET <route>?url=<raw> (raw is sent encoded; null sends no `url` at all). */
  get(rawUrl: string | null): Promise<Answer>;
  close(): Promise<void>;
}

/** Starts a fixture server and the app over a policy (open, with `policy`'s overrides, by default). */
export function startFetchApp(
  createApp: CreateFetchApp,
  route: string,
  policy: Partial<FetchPolicy> | FetchPolicy = {},
  routes: Record<string, FixtureRoute> = {},
): FetchApp {
  const fixture = startFixtureServer(routes);
  const full = "allowPrivate" in policy && "maxBytes" in policy && "timeoutMs" in policy
    ? policy as FetchPolicy
    : openPolicy(policy);
  const app = createApp({ fetchPolicy: full }, { log: () => {} });
  return {
    fixture,
    async get(rawUrl) {
      const query = rawUrl === null ? "" : `?url=${encodeURIComponent(rawUrl)}`;
      const res = await app.request(`${route}${query}`);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
      return { status: res.status, body: await res.json() };
    },
    close: () => fixture.close(),
  };
}

/** `url` values the URL rule refuses (null: no `url` parameter at all). */
export const INVALID_URLS = [
  null,
  "",
  "   ",
  "not a url",
  "/relative/path",
  "ftp://example.com/file",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "http://",
];

/** Registers the contract's input rows for `route` of an app. */
export function fetchInputContractTests(createApp: CreateFetchApp, route: string): void {
  Deno.test(`${route}: an invalid url is 400 INVALID_URL 'Missing or invalid url', nothing fetched`, async () => {
    const app = startFetchApp(createApp, route);
    try {
      for (const raw of INVALID_URLS) {
        const { status, body } = await app.get(raw);
        assert.equal(status, 400, String(raw));
        assert.deepEqual(
          body,
          { error: "Missing or invalid url", code: "INVALID_URL" },
          String(raw),
        );
      }
      assert.equal(app.fixture.hits(), 0);
    } finally {
      await app.close();
    }
  });

  Deno.test(`${route}: a loopback literal is 400 INVALID_URL under the real policy, zero hits`, async () => {
    const app = startFetchApp(createApp, route, guardedPolicy());
    try {
      const { status, body } = await app.get(app.fixture.url("/pages/blog.html"));
      assert.equal(status, 400);
      assert.deepEqual(body, {
        error: "URL host is a private or reserved address",
        code: "INVALID_URL",
      });
      assert.equal(app.fixture.hits(), 0);
    } finally {
      await app.close();
    }
  });

  Deno.test(`${route}: a refused connection is 502 FETCH_ERROR naming the host`, async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close(); // nothing listens there any more
    const app = startFetchApp(createApp, route);
    try {
      const { status, body } = await app.get(`http://127.0.0.1:${port}/`);
      assert.equal(status, 502);
      assert.deepEqual(body, {
        error: `Connection refused by 127.0.0.1:${port}`,
        code: "FETCH_ERROR",
      });
    } finally {
      await app.close();
    }
  });
}
