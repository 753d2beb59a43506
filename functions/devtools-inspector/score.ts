/** The Observatory's arithmetic: from check modifiers to a score, and from a score to a grade. */

/** Every audit starts from this score. */
export const BASE_SCORE = 100;

/** Bonuses count only when the penalties alone leave at least this (an A already). */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

/** Lowest score of each grade, highest first (the Observatory's chart, in steps of 5). */
export const GRADE_SCALE: readonly (readonly [number, string])[] = [
  [100, "A+"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [30, "D"],
  [25, "D-"],
  [0, "F"],
];

/**
 * The score of a set of modifiers: 100 plus the penalties; when that is 90 or more, plus the
 * bonuses too. Never below 0; above 100 is possible (and still an A+).
 */
export function totalScore(modifiers: readonly number[]): number {
  const sum = (ns: readonly number[]) => ns.reduce((a, b) => a + b, 0);
  const penalised = BASE_SCORE + sum(modifiers.filter((m) => m < 0));
  const score = penalised >= MINIMUM_SCORE_FOR_EXTRA_CREDIT
    ? BASE_SCORE + sum(modifiers)
    : penalised;
  return Math.max(0, score);
}

/** The letter grade of a score. */
export function gradeOf(score: number): string {
  return GRADE_SCALE.find(([min]) => score >= min)?.[1] ?? "F";
}
