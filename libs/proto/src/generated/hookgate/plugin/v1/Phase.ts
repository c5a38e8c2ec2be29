// Original file: proto/hookgate/plugin/v1/plugin.proto

export const Phase = {
  PHASE_UNSPECIFIED: 'PHASE_UNSPECIFIED',
  MUTATING: 'MUTATING',
  VALIDATING: 'VALIDATING',
} as const;

export type Phase =
  | 'PHASE_UNSPECIFIED'
  | 0
  | 'MUTATING'
  | 1
  | 'VALIDATING'
  | 2

export type Phase__Output = typeof Phase[keyof typeof Phase]
