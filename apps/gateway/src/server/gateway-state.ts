/**
 * What one admission request reads, once, when it starts: the compiled hooks, plugin clients and
 * namespace source of one configuration generation. A reload swaps the whole snapshot; in-flight requests keep theirs.
 */
import type {
  EncodeAnnotationsOptions,
  HookGroupInvoker,
  HookInvoker,
  HookSet,
  NamespaceLookup,
  RequestBudgetOptions,
} from '@hookgate/admission';
import type { PluginClients } from '../grpc/index.js';
import type { PolicyHookSets } from './policy-hook-sets.js';

export interface GatewayState {
  readonly generation: number;
  readonly hooks: HookSet;
  /**
   * The hooks behind `/mutate/fail`, `/mutate/ignore`, ... split by their configured failurePolicy
   * (before break glass); split from `hooks` when absent.
   */
  readonly hooksByPolicy?: PolicyHookSets;
  /** The break-glass switch is on: every hook is served failing open; decision lines say so. */
  readonly breakGlass?: boolean;
  readonly plugins: PluginClients;
  /** Namespace labels for namespaceSelector (static labels are part of the configuration). */
  readonly namespaces: NamespaceLookup;
  /** Safety margin and default budget for `?timeout=` (computeRequestBudget). */
  readonly budget: RequestBudgetOptions;
  /** How inner hooks' audit annotations are passed on (GatewayConfiguration `audit`); the gateway's options when absent. */
  readonly annotations?: EncodeAnnotationsOptions;
  /** Wraps each request's plugin invoker: the registry's lease guard (registered plugins whose lease ran out fail closed). */
  readonly guardPlugins?: (invoke: HookInvoker) => HookInvoker;
  /** The same guard for the calls the chain starts together (ChainEnv.invokeTogether). */
  readonly guardPluginGroups?: (invoke: HookGroupInvoker) => HookGroupInvoker;
}

export interface GatewayStateSource {
  current(): GatewayState;
}
