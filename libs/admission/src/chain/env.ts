/** What the chain is given for one request: its transports, clock and budget. */
import type { HookGroupInvoker, HookInvoker } from '../types/invoker.js';
import type { NamespaceLookup } from '../types/namespace-lookup.js';

export interface ChainEnv {
  readonly invoke: HookInvoker;
  /**
   * Optional: the calls the validating dispatcher makes concurrently, started together (see
   * HookGroupInvoker). Without it each call goes through `invoke`. The mutating dispatcher never
   * uses it: each mutating hook sees the object as patched by the hooks before it.
   */
  readonly invokeTogether?: HookGroupInvoker;
  readonly namespaces: NamespaceLookup;
  /** Clock in ms. Injected so tests control time. */
  now(): number;
  /** A fresh uid for each hook call (crypto.randomUUID in the gateway). */
  newUid(): string;
  /** Absolute end of the request budget (ms, same clock): ?timeout= minus the safety margin. Enforced. */
  readonly deadline: number;
  /**
   * When the apiserver itself gives up (?timeout= without the margin). Hooks are told in their own
   * `?timeout=` the time left until it, as the apiserver would tell them; default `deadline`.
   */
  readonly apiserverDeadline?: number;
  /** Aborted when the apiserver hung up; passed to every invocation. */
  readonly signal: AbortSignal;
}
