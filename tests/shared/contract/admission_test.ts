/**
 * shared/contract/admission.ts: slots, the bounded queue (oldest first), the busy error, waits
 * that run out (on an injected timer) or whose client leaves, and the page routes using it:
 * a full instance answers the route's contract error with "busy" while `GET /` stays served.
 * The workload is tasks the test settles itself: nothing depends on the wall clock.
 */
import assert from "node:assert/strict";
import {
  Admission,
  admissionFromEnv,
  type AdmissionLimits,
  BusyError,
  DEFAULT_PAGE_ADMISSION,
  type Timers,
} from "../../../shared/contract/admission.ts";
import { Env } from "../../../shared/contract/config.ts";
import { createApp as createAnalyzer } from "../../../functions/dependency-analyzer/app.ts";
import { createApp as createExtractor } from "../../../functions/metadata-extractor/app.ts";
import { createApp as createInspector } from "../../../functions/devtools-inspector/app.ts";
import { createApp as createSummary } from "../../../functions/ai-summary/app.ts";
import { bindingsFromEnv as analyzerBindings } from "../../../functions/dependency-analyzer/config.ts";
import { bindingsFromEnv as metadataBindings } from "../../../functions/metadata-extractor/config.ts";
import { bindingsFromEnv as inspectorBindings } from "../../../functions/devtools-inspector/config.ts";
import { bindingsFromEnv as summaryBindings } from "../../../functions/ai-summary/config.ts";
import { aiFromEnv } from "../../../shared/bindings/ai/mod.ts";
import { openPolicy } from "../../support/policy.ts";
import { startFixtureServer } from "../../support/fixture_server.ts";

/** A task the test finishes: `done()` settles it, `started` tells whether it ran. */
function task() {
  let finish!: () => void;
  const gate = new Promise<void>((r) => finish = r);
  const t = {
    started: false,
    done: () => finish(),
    run: async () => {
      t.started = true;
      await gate;
      return "ok";
    },
  };
  return t;
}

/** Timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    set: (callback) => {
      pending.set(++next, callback);
      return next;
    },
    clear: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    pending: () => pending.size,
    fireAll: () => {
      const due = [...pending.values()];
      pending.clear();
      for (const callback of due) callback();
    },
  };
}

/** Lets settled promises run their continuations. */
const tick = () => new Promise((r) => setTimeout(r, 0));

const LIMITS: AdmissionLimits = { concurrency: 2, maxQueued: 2, maxWaitMs: 1_000 };

Deno.test("admission: runs up to `concurrency` at once, queues the rest, refuses past the queue", async () => {
  const clock = manualTimers();
  const admission = new Admission(LIMITS, clock.timers);
  const tasks = Array.from({ length: 4 }, task);
  const results = tasks.map((t) => admission.run(t.run));
  await tick();
  assert.deepEqual(tasks.map((t) => t.started), [true, true, false, false]);
  assert.equal(admission.active, 2);
  assert.equal(admission.queued, 2);

  await assert.rejects(admission.run(task().run), (err: unknown) => {
    assert.ok(err instanceof BusyError);
    assert.match(err.message, /^Busy: 2 pages in progress and 2 waiting/);
    return true;
  });

  // A finished task hands its slot to the oldest waiter.
  tasks[1].done();
  assert.equal(await results[1], "ok");
  await tick();
  assert.deepEqual(tasks.map((t) => t.started), [true, true, true, false]);
  assert.equal(admission.active, 2);
  assert.equal(admission.queued, 1);

  for (const t of tasks) t.done();
  assert.deepEqual(await Promise.all(results), ["ok", "ok", "ok", "ok"]);
  assert.equal(admission.active, 0);
  assert.equal(admission.queued, 0);
  assert.equal(clock.pending(), 0, "every wait timer is cleared");
});

Deno.test("admission: a failing task frees its slot and keeps its own error", async () => {
  const admission = new Admission({ ...LIMITS, concurrency: 1 }, manualTimers().timers);
  const waiting = task();
  const failing = admission.run(() => Promise.reject(new Error("upstream down")));
  const queued = admission.run(waiting.run);
  await assert.rejects(failing, /upstream down/);
  await tick();
  assert.equal(waiting.started, true);
  waiting.done();
  assert.equal(await queued, "ok");
  assert.equal(admission.active, 0);
});

Deno.test("admission: a wait that runs out is refused and leaves the queue", async () => {
  const clock = manualTimers();
  const admission = new Admission({ ...LIMITS, concurrency: 1 }, clock.timers);
  const running = task();
  const first = admission.run(running.run);
  const late = task();
  const waiting = admission.run(late.run);
  assert.equal(admission.queued, 1);
  clock.fireAll();
  await assert.rejects(waiting, /^BusyError: Busy: no page slot free within 1000 ms/);
  assert.equal(admission.queued, 0);
  running.done();
  await first;
  assert.equal(late.started, false);
  assert.equal(admission.active, 0);
});

Deno.test("admission: a client that leaves while waiting frees its place", async () => {
  const clock = manualTimers();
  const admission = new Admission({ ...LIMITS, concurrency: 1, maxQueued: 1 }, clock.timers);
  const running = task();
  const first = admission.run(running.run);
  const left = new AbortController();
  const gone = admission.run(task().run, left.signal);
  left.abort();
  await assert.rejects(gone, /went away/);
  assert.equal(admission.queued, 0);
  assert.equal(clock.pending(), 0);
  // Its place is free for another request.
  const next = task();
  const queued = admission.run(next.run);
  assert.equal(admission.queued, 1);
  running.done();
  await first;
  await tick();
  assert.equal(next.started, true);
  next.done();
  await queued;
  // An already aborted request is not queued at all.
  const blocker = task();
  const blocked = admission.run(blocker.run);
  await assert.rejects(admission.run(task().run, AbortSignal.abort()), BusyError);
  blocker.done();
  await blocked;
});

Deno.test("admission: limits from the environment, defaults and bounds", () => {
  assert.deepEqual(admissionFromEnv(new Env({})), DEFAULT_PAGE_ADMISSION);
  assert.deepEqual(
    admissionFromEnv(
      new Env({ PAGE_CONCURRENCY: "2", PAGE_QUEUE: "0", PAGE_QUEUE_WAIT_MS: "500" }),
    ),
    { concurrency: 2, maxQueued: 0, maxWaitMs: 500 },
  );
  assert.throws(() => admissionFromEnv(new Env({ PAGE_CONCURRENCY: "0" })), /PAGE_CONCURRENCY/);
});

Deno.test("admission: /metadata and /summary run two pages at once by default, the others four", () => {
  const env = new Env({});
  const concurrency = (b: { admission?: Admission }) => b.admission!.limits.concurrency;
  assert.equal(concurrency(metadataBindings(env)), 2);
  assert.equal(concurrency(summaryBindings(env)), 2);
  assert.equal(concurrency(analyzerBindings(env)), 4);
  assert.equal(concurrency(inspectorBindings(env)), 4);
  // PAGE_CONCURRENCY still sets it.
  assert.equal(concurrency(metadataBindings(new Env({ PAGE_CONCURRENCY: "6" }))), 6);
});

/** The embedded model (extractive, offline): what ai-summary runs without configuration. */
const AI_BINDING = aiFromEnv(new Env({}));

/** Each page route with an app over `admission`. */
const ROUTES = [
  {
    path: "/analyze",
    code: "FETCH_ERROR",
    app: (admission: Admission) =>
      createAnalyzer({ fetchPolicy: openPolicy(), admission }, { log: () => {} }),
  },
  {
    path: "/metadata",
    code: "FETCH_ERROR",
    app: (admission: Admission) =>
      createExtractor({ fetchPolicy: openPolicy(), admission }, { log: () => {} }),
  },
  {
    path: "/inspect",
    code: "FETCH_ERROR",
    app: (admission: Admission) =>
      createInspector({ fetchPolicy: openPolicy(), admission }, { log: () => {} }),
  },
  {
    path: "/summary",
    code: "FETCH_OR_AI_ERROR",
    app: (admission: Admission) =>
      createSummary({ fetchPolicy: openPolicy(), admission, AI: AI_BINDING }, { log: () => {} }),
  },
] as const;

for (const route of ROUTES) {
  Deno.test(`admission: ${route.path} when full answers ${route.code} "busy"; GET / is served`, async () => {
    const server = startFixtureServer();
    const clock = manualTimers();
    const admission = new Admission(
      { concurrency: 1, maxQueued: 1, maxWaitMs: 1_000 },
      clock.timers,
    );
    const app = route.app(admission);
    const page = `${route.path}?url=${encodeURIComponent(server.url("/pages/blog.html"))}`;
    try {
      // Other work holds the one slot: a request waits in the queue, the next is refused.
      const holder = task();
      const held = admission.run(holder.run);
      const waiting = app.request(page);
      await tick();
      assert.equal(admission.queued, 1);
      const refused = await app.request(page);
      assert.equal(refused.status, 502);
      assert.equal(refused.headers.get("retry-after"), "1");
      const body = await refused.json();
      assert.equal(body.code, route.code);
      assert.match(body.error, /^Busy: 1 pages in progress and 1 waiting; try again shortly$/);
      assert.equal(server.hits("/pages/blog.html"), 0, "nothing fetched for a refused request");

      // Bad input is still told at once, and the root document is served.
      assert.equal((await app.request(`${route.path}?url=nope`)).status, 400);
      const root = await app.request("/");
      assert.equal(root.status, 200);
      assert.ok((await root.json()).name);

      // Once the slot is free, the waiting request is served.
      holder.done();
      await held;
      const served = await waiting;
      assert.equal(served.status, 200, await served.clone().text());
      await served.body?.cancel();
      assert.ok(server.hits("/pages/blog.html") >= 1);
      assert.equal(admission.active, 0);
    } finally {
      await server.close();
    }
  });
}
