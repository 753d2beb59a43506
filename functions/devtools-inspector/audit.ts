/** Runs the security table over a response and scores it. */
import { cooperative } from "../../shared/contract/cooperative.ts";
import { type AuditContext, type AuditInput, buildAuditContext } from "./audit_context.ts";
import type { Finding, SecurityCheck } from "./check_definition.ts";
import { gradeOf, totalScore } from "./score.ts";
import type { SecurityCheckResult, SecurityReport } from "./schema.ts";
import { SECURITY_CHECKS } from "./security_table.ts";

/** One check's row of the report. */
function runCheck(check: SecurityCheck, ctx: AuditContext) {
  const verdict = check.evaluate(ctx);
  const finding: Finding = typeof verdict === "string" ? { result: verdict } : verdict;
  const outcome = check.outcomes[finding.result];
  if (!outcome) throw new Error(`check ${check.id} gave unknown result ${finding.result}`);
  return {
    id: check.id,
    title: check.title,
    pass: outcome.pass,
    scoreModifier: outcome.modifier,
    result: finding.result,
    summary: outcome.summary,
    advice: outcome.advice,
    evidence: finding.evidence ?? [],
  } satisfies SecurityCheckResult;
}

/**
 * The scored audit of a response (`checks` defaults to the whole table). `yieldSoon` is
 * called between checks and within the context's long loops: the request's cooperative yield,
 * which ends the audit with its error once the request's time budget is spent.
 */
export async function securityAudit(
  input: AuditInput,
  checks: readonly SecurityCheck[] = SECURITY_CHECKS,
  yieldSoon: () => Promise<void> = cooperative(),
): Promise<SecurityReport> {
  const ctx = await buildAuditContext(input, yieldSoon);
  const rows = [];
  for (const check of checks) {
    await yieldSoon();
    rows.push(runCheck(check, ctx));
  }
  const score = totalScore(rows.map((r) => r.scoreModifier));
  const passed = rows.filter((r) => r.pass).length;
  return {
    score,
    grade: gradeOf(score),
    testsPassed: passed,
    testsFailed: rows.length - passed,
    checks: rows,
  };
}
