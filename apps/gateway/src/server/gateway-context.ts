/** What the admission routes need, built once by buildGateway from its options and deps. */
import type { EncodeAnnotationsOptions, HookInvoker } from '@hookgate/admission';
import type { GatewayMetrics } from '@hookgate/observability';
import type { GatewayStateSource } from './gateway-state.js';
import type { SideEffectSink } from './side-effects.js';

export interface GatewayContext {
  readonly state: GatewayStateSource;
  readonly bridge: HookInvoker;
  readonly now: () => number;
  readonly newUid: () => string;
  readonly annotations: EncodeAnnotationsOptions;
  readonly metrics: GatewayMetrics;
  readonly sideEffects: SideEffectSink;
  /** True once a graceful close began: answers then carry `Connection: close`. */
  readonly draining: () => boolean;
}
