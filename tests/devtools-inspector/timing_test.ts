/** The safe fetch's offsets turned into the network tab's phase durations. */
import assert from "node:assert/strict";
import { phaseTimings } from "../../functions/devtools-inspector/timing.ts";

Deno.test("HTTPS by name: each phase is the gap since the previous one", () => {
  assert.deepEqual(
    phaseTimings({ dns: 12.5, connect: 30, tls: 75.255, ttfb: 120, download: 8.004, total: 350 }),
    { dns: 12.5, connect: 17.5, tls: 45.26, ttfb: 44.75, download: 8, total: 350 },
  );
});

Deno.test("HTTP to an IP literal: no DNS, no TLS; waiting counts from the connection", () => {
  assert.deepEqual(
    phaseTimings({ dns: null, connect: 1.2, tls: null, ttfb: 3.7, download: 0.4, total: 5.3 }),
    { dns: null, connect: 1.2, tls: null, ttfb: 2.5, download: 0.4, total: 5.3 },
  );
});

Deno.test("a connection that was never observed leaves waiting from the start", () => {
  assert.deepEqual(
    phaseTimings({ dns: null, connect: null, tls: null, ttfb: 9, download: 1, total: 10 }),
    { dns: null, connect: null, tls: null, ttfb: 9, download: 1, total: 10 },
  );
});
