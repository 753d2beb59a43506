/** The contract error a call throws, for tests of validators. */
import assert from "node:assert/strict";
import { ApiError } from "../../shared/contract/errors.ts";

/** The error `fn` throws, which must be the contract's. */
export function errorOf(fn: () => unknown): { code: string | null; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail("no error");
}
