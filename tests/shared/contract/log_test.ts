/** shared/contract/log.ts: what a line takes from the request it is written in, and what not. */
import assert from "node:assert/strict";
import { logEvent, withRequestLog } from "../../../shared/contract/log.ts";

Deno.test("logEvent: time, then requestId, then the fields; the request's id and sink by default", async () => {
  const request: string[] = [];
  const own: string[] = [];
  await withRequestLog("req-1", (l) => request.push(l), () => {
    logEvent({ event: "a" });
    logEvent({ event: "b" }, (l) => own.push(l));
    logEvent({ event: "c", requestId: "other" });
    logEvent({ event: "d", requestId: "mine" }, (l) => own.push(l));
  });
  const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l));
  assert.deepEqual(parsed(request).map((l) => [l.event, l.requestId]), [["a", "req-1"], [
    "c",
    "other",
  ]]);
  assert.deepEqual(parsed(own).map((l) => [l.event, l.requestId]), [["b", "req-1"], ["d", "mine"]]);
  for (const line of [...request, ...own]) {
    assert.deepEqual(Object.keys(JSON.parse(line)).slice(0, 3), ["time", "requestId", "event"]);
  }
});

Deno.test("logEvent: outside a request, a line has no requestId unless the fields carry one", () => {
  const lines: string[] = [];
  logEvent({ event: "start" }, (l) => lines.push(l));
  logEvent({ event: "hit", requestId: undefined }, (l) => lines.push(l));
  assert.deepEqual(lines.map((l) => Object.keys(JSON.parse(l))), [["time", "event"], [
    "time",
    "event",
  ]]);
});
