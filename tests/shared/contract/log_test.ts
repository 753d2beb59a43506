/** shared/contract/log.ts: what a line takes from the request it is written in, and what not. */
import assert from "node:assert/strict";
import { logEvent, requestLine, withRequestLog } from "../../../shared/contract/log.ts";

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

Deno.test("requestLine: the line logEvent writes for a request without error, path escaped", () => {
  for (const path of ["/abc", '/a"b\\c', "/ü/\n"]) {
    const lines: string[] = [];
    logEvent(
      { requestId: "id-1", method: "GET", path, status: 302, durationMs: 0.07, code: null },
      (l) => lines.push(l),
    );
    const built = JSON.parse(requestLine("id-1", "GET", path, 302, 0.07));
    const logged = JSON.parse(lines[0]);
    assert.ok(Math.abs(Date.parse(built.time) - Date.parse(logged.time)) < 1_000);
    assert.deepEqual({ ...built, time: 0 }, { ...logged, time: 0 });
    assert.deepEqual(Object.keys(built), Object.keys(logged));
  }
});

Deno.test("logEvent: the time is the ISO instant of the write, milliseconds included", async () => {
  for (let i = 0; i < 70; i++) {
    const lines: string[] = [];
    const before = Date.now();
    logEvent({ event: "tick" }, (l) => lines.push(l));
    const after = Date.now();
    const time: string = JSON.parse(lines[0]).time;
    assert.equal(new Date(Date.parse(time)).toISOString(), time, "the exact ISO format");
    assert.ok(Date.parse(time) >= before && Date.parse(time) <= after, time);
    await new Promise((r) => setTimeout(r, 3 + (i % 7) * 5)); // across milliseconds and seconds
  }
});
