/**
 * What one webhook's conditions may still spend: iterations, and time on `now`'s clock. The clock
 * is first read once an evaluation has iterated a while, so cheap conditions never read it.
 */
export interface EvaluationBudget {
  remaining: number;
  /** Set at the first clock reading: that reading plus MATCH_CONDITIONS_TIME_MS (match/cel-cost.ts). */
  deadline?: number;
  readonly now?: () => number;
}
