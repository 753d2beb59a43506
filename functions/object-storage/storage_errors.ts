/**
 * Bucket failures as the contract reports them: a key the backend refuses is 400 "Invalid
 * key"; anything else is 500 STORAGE_ERROR with a generic message, so that no endpoint,
 * bucket name or credential reaches the client. The details go to the log.
 */
import { InvalidKeyError } from "../../shared/bindings/bucket/mod.ts";
import { NotConfiguredError } from "../../shared/contract/config.ts";
import { ApiError, safeMessage } from "../../shared/contract/errors.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import { OBJECT_MESSAGES } from "./params.ts";

/** The contract error for a failed bucket operation (logging the details of a real failure). */
export function storageFailure(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // A deployment without a store: the message names what to set, and holds no value.
  if (err instanceof NotConfiguredError) return new ApiError("STORAGE_ERROR", err.message);
  if (err instanceof InvalidKeyError) {
    return new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidKey);
  }
  logEvent({ level: "error", event: "storage_error", message: safeMessage(errorText(err)) });
  return new ApiError("STORAGE_ERROR", OBJECT_MESSAGES.storage);
}

/** Runs a bucket operation, turning its failure into the contract error. */
export async function storage<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    throw storageFailure(err);
  }
}
