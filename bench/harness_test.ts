/** The benchmark harness's own logic (what runs without spawning anything). */
import assert from "node:assert/strict";
import { pairInTurn } from "./harness.ts";

Deno.test("pairInTurn runs the baseline first on even rounds, the project first on odd ones", async () => {
  const order: string[] = [];
  const side = (name: string) => () => Promise.resolve(order.push(name));
  for (const round of [-1, 0, 1, 2]) {
    await pairInTurn(round, side("baseline"), side("project"));
  }
  assert.deepEqual(order, [
    ...["project", "baseline"], // the warm-up round, -1
    ...["baseline", "project"],
    ...["project", "baseline"],
    ...["baseline", "project"],
  ]);
});
