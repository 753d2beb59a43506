/** What one row of the security table is: its outcomes (with their score modifiers) and its test. */
import type { AuditContext } from "./audit_context.ts";

/** One possible result of a check: its score modifier, whether it passes, and what to do. */
export interface Outcome {
  /** Added to the score (negative: a penalty; positive: a bonus, counted only at 90+). */
  modifier: number;
  pass: boolean;
  /** What this result means, in one line. */
  summary: string;
  /** What to change; null when there is nothing to do. */
  advice: string | null;
}

/** A check's verdict: an outcome id, with the evidence it rests on. */
export interface Finding<K extends string = string> {
  result: K;
  evidence?: string[];
}

/** One security check: an id, what it looks at, its outcomes, and the test that picks one. */
export interface SecurityCheck<K extends string = string> {
  /** Stable id (the HTTP Observatory's test name where there is one). */
  id: string;
  /** Display name. */
  title: string;
  /** What the check looks at, for readers of the table. */
  description: string;
  /** Every result the check can give, keyed by outcome id. */
  outcomes: Record<K, Outcome>;
  /** Picks the outcome for a response. */
  evaluate(ctx: AuditContext): K | Finding<K>;
}

/** Declares a check; the outcome ids `evaluate` may return are checked against `outcomes`. */
export function defineCheck<K extends string>(check: SecurityCheck<K>): SecurityCheck {
  return check as unknown as SecurityCheck;
}

/** A passing outcome. */
export function pass(modifier: number, summary: string, advice: string | null = null): Outcome {
  return { modifier, pass: true, summary, advice };
}

/** A failing outcome. */
export function fail(modifier: number, summary: string, advice: string): Outcome {
  return { modifier, pass: false, summary, advice };
}

/** The worst of several found outcome ids (lowest modifier; the first on a tie), or undefined. */
export function worst<K extends string>(
  outcomes: Record<K, Outcome>,
  found: readonly K[],
): K | undefined {
  let result: K | undefined;
  for (const k of found) {
    if (result === undefined || outcomes[k].modifier < outcomes[result].modifier) result = k;
  }
  return result;
}
