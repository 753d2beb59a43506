/** The buffered request log: lines are written together, in order, and none is lost. */
import assert from "node:assert/strict";
import { bufferedLog } from "../../../shared/contract/log_buffer.ts";

function sink() {
  const writes: string[] = [];
  const decoder = new TextDecoder();
  return { writes, write: (bytes: Uint8Array) => writes.push(decoder.decode(bytes)) };
}

Deno.test("bufferedLog: queued lines go out in one write, in order, on flush", () => {
  const out = sink();
  const log = bufferedLog(out.write, 10_000);
  log("a");
  log("b");
  log("c");
  assert.deepEqual(out.writes, [], "nothing written per line");
  log.flush();
  assert.deepEqual(out.writes, ["a\nb\nc\n"]);
  log.flush();
  assert.equal(out.writes.length, 1, "an empty queue writes nothing");
});

Deno.test("bufferedLog: the timer flushes after the interval", async () => {
  const out = sink();
  const log = bufferedLog(out.write, 20);
  log("x");
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(out.writes, ["x\n"]);
});

Deno.test("bufferedLog: a full queue is written at once", () => {
  const out = sink();
  const log = bufferedLog(out.write, 10_000, 100);
  const line = "y".repeat(40);
  log(line);
  log(line);
  assert.equal(out.writes.length, 0);
  log(line);
  assert.deepEqual(out.writes, [`${line}\n${line}\n${line}\n`]);
  log("z");
  log.flush();
  assert.deepEqual(out.writes.at(-1), "z\n");
});
