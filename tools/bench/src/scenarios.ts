/** The scenarios the issue asks for, by id (`--scenarios noop,realistic,no-match,scale`). */
import type { HookProfile } from './hooks/bench-hooks.js';

export const SCENARIO_IDS = ['noop', 'realistic', 'no-match', 'scale'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export function isScenarioId(value: string): value is ScenarioId {
  return (SCENARIO_IDS as readonly string[]).includes(value);
}

export interface MainScenario {
  readonly kind: 'main';
  readonly id: 'noop' | 'realistic';
  readonly profile: HookProfile;
}

export interface NoMatchScenario {
  readonly kind: 'no-match';
  readonly id: 'no-match';
}

export interface ScaleScenario {
  readonly kind: 'scale';
  readonly id: 'scale';
}

export type Scenario = MainScenario | NoMatchScenario | ScaleScenario;

export function scenario(id: ScenarioId): Scenario {
  switch (id) {
    case 'noop':
      return { kind: 'main', id, profile: 'noop' };
    case 'realistic':
      return { kind: 'main', id, profile: 'realistic' };
    case 'no-match':
      return { kind: 'no-match', id };
    case 'scale':
      return { kind: 'scale', id };
  }
}

/** How many registered hooks the scale scenario's review matches (per phase). */
export const SCALE_MATCHING_PER_PHASE = 2;
