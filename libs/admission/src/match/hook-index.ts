/**
 * The per-phase hook index: which hooks' rules match a request, without scanning every rule.
 *
 * Rules are bucketed by (operation, group, resource name), each possibly `*`. A request looks at
 * the 8 buckets its (op|*, group|*, resource|*) can hit, then keeps the hooks whose rules really
 * match (version, subresource and scope too). Whether rules match depends only on operation, GVR,
 * subresource and whether the request has a namespace, so the answer is cached per such key.
 * Candidates come back in list order; a request nothing matches gets one shared empty array.
 */
import type { Hook, Phase } from '../types/hook.js';
import { findMatchingRule, splitResourceEntry } from './rules.js';
import type { RuleAttributes } from './rules.js';

export interface HookSet {
  readonly mutating: readonly Hook[];
  readonly validating: readonly Hook[];
  /** Hooks of the phase whose rules match the request, in list order. The chain still calls shouldCallHook. */
  candidates(phase: Phase, request: RuleAttributes): readonly Hook[];
}

const NONE: readonly Hook[] = Object.freeze([]);

/** Distinct request shapes are bounded by the cluster's API surface; the bound guards against abuse. */
const MAX_CACHED_SHAPES = 10_000;

const bucketKey = (op: string, group: string, resource: string): string => `${op}\u0000${group}\u0000${resource}`;

export class HookIndex {
  /** bucket key → ascending, distinct hook positions. */
  private readonly buckets = new Map<string, number[]>();
  private readonly cache = new Map<string, readonly Hook[]>();

  constructor(private readonly hooks: readonly Hook[]) {
    hooks.forEach((hook, position) => {
      for (const rule of hook.rules) {
        for (const op of rule.operations ?? []) {
          for (const group of rule.apiGroups ?? []) {
            for (const entry of rule.resources ?? [])
              this.add(bucketKey(op, group, splitResourceEntry(entry)[0]), position);
          }
        }
      }
    });
  }

  private add(key: string, position: number): void {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, [position]);
    else if (bucket[bucket.length - 1] !== position) bucket.push(position);
  }

  candidates(request: RuleAttributes): readonly Hook[] {
    if (this.buckets.size === 0) return NONE;
    const { group, version, resource } = request.resource;
    const namespaced = (request.namespace ?? '') !== '';
    const shape = `${request.operation}\u0000${group}\u0000${version}\u0000${resource}\u0000${request.subResource ?? ''}\u0000${namespaced ? 1 : 0}`;
    const cached = this.cache.get(shape);
    if (cached !== undefined) return cached;
    const result = this.compute(request);
    if (this.cache.size >= MAX_CACHED_SHAPES) this.cache.clear();
    this.cache.set(shape, result);
    return result;
  }

  private compute(request: RuleAttributes): readonly Hook[] {
    const { group, resource } = request.resource;
    const positions = new Set<number>();
    for (const op of [request.operation, '*']) {
      for (const g of [group, '*']) {
        for (const r of [resource, '*']) {
          for (const p of this.buckets.get(bucketKey(op, g, r)) ?? []) positions.add(p);
        }
      }
    }
    if (positions.size === 0) return NONE;
    const matching: Hook[] = [];
    for (const p of [...positions].sort((a, b) => a - b)) {
      const hook = this.hooks[p]!;
      if (findMatchingRule(hook.rules, request) >= 0) matching.push(hook);
    }
    return matching.length === 0 ? NONE : Object.freeze(matching);
  }
}

export function buildHookSet(mutating: readonly Hook[], validating: readonly Hook[]): HookSet {
  const indexes: Record<Phase, HookIndex> = {
    mutating: new HookIndex(mutating),
    validating: new HookIndex(validating),
  };
  return Object.freeze({
    mutating: Object.freeze([...mutating]),
    validating: Object.freeze([...validating]),
    candidates: (phase: Phase, request: RuleAttributes) => indexes[phase].candidates(request),
  });
}
