/** The scenarios the issues ask for, by id (`--scenarios noop,realistic,one-process,bridge,no-match,scale,workers`). */
import type { HookProfile } from './hooks/bench-hooks.js';

export const SCENARIO_IDS = ['noop', 'realistic', 'one-process', 'bridge', 'no-match', 'scale', 'workers'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export function isScenarioId(value: string): value is ScenarioId {
  return (SCENARIO_IDS as readonly string[]).includes(value);
}

export interface MainScenario {
  readonly kind: 'main';
  readonly id: 'noop' | 'realistic';
  readonly profile: HookProfile;
}

/** The no-op hooks all served by one plugin process, against the plain webhooks. */
export interface OneProcessScenario {
  readonly kind: 'one-process';
  readonly id: 'one-process';
}

/** The no-op hooks as existing https webhooks behind the gateway, against calling them directly. */
export interface BridgeScenario {
  readonly kind: 'bridge';
  readonly id: 'bridge';
}

export interface NoMatchScenario {
  readonly kind: 'no-match';
  readonly id: 'no-match';
}

export interface ScaleScenario {
  readonly kind: 'scale';
  readonly id: 'scale';
}

/** The no-op scenario's gateway with 1, 2 and 3 workers. */
export interface WorkersScenario {
  readonly kind: 'workers';
  readonly id: 'workers';
}

export type Scenario =
  MainScenario | OneProcessScenario | BridgeScenario | NoMatchScenario | ScaleScenario | WorkersScenario;

export function scenario(id: ScenarioId): Scenario {
  switch (id) {
    case 'noop':
      return { kind: 'main', id, profile: 'noop' };
    case 'realistic':
      return { kind: 'main', id, profile: 'realistic' };
    case 'one-process':
    case 'bridge':
    case 'no-match':
    case 'scale':
    case 'workers':
      return { kind: id, id } as Scenario;
  }
}

/** How many registered hooks the scale scenario's review matches (per phase). */
export const SCALE_MATCHING_PER_PHASE = 2;
/** Gateway worker counts the workers scenario compares. */
export const WORKER_COUNTS = [1, 2, 3] as const;
/** The plugin process serving every hook in the one-process scenario. */
export const ONE_PLUGIN = 'bench-all';

/** Which processes a set of scenarios needs. */
export function needs(ids: readonly ScenarioId[]) {
  const kinds = new Set(ids.map((id) => scenario(id).kind));
  return {
    /** One plugin per hook slot (the fillers of the scale scenario name them too). */
    pluginPerSlot: kinds.has('main') || kinds.has('no-match') || kinds.has('scale') || kinds.has('workers'),
    onePlugin: kinds.has('one-process'),
    plainWebhooks: kinds.has('main') || kinds.has('one-process') || kinds.has('no-match'),
    httpsWebhooks: kinds.has('bridge'),
  };
}
