// Original file: proto/hookgate/plugin/v1/plugin.proto

export const Outcome = {
  OUTCOME_UNSPECIFIED: 'OUTCOME_UNSPECIFIED',
  /**
   * The object was written (or the delete happened).
   */
  PERSISTED: 'PERSISTED',
  /**
   * The request was rejected or failed: the side effect should be undone.
   */
  NOT_PERSISTED: 'NOT_PERSISTED',
  /**
   * The controller could not tell (e.g. the object changed since); decide conservatively.
   */
  UNKNOWN: 'UNKNOWN',
} as const;

export type Outcome =
  | 'OUTCOME_UNSPECIFIED'
  | 0
  /**
   * The object was written (or the delete happened).
   */
  | 'PERSISTED'
  | 1
  /**
   * The request was rejected or failed: the side effect should be undone.
   */
  | 'NOT_PERSISTED'
  | 2
  /**
   * The controller could not tell (e.g. the object changed since); decide conservatively.
   */
  | 'UNKNOWN'
  | 3

export type Outcome__Output = typeof Outcome[keyof typeof Outcome]
