/**
 * RegistrationStore: the registry's state and rules, with no I/O and no timers (the clock is
 * injected; sweep() is called by a timer in the gateway and directly in tests).
 *
 * - Register validates like a static file, refuses name conflicts naming both sources, and
 *   replaces the plugin's previous registration as a whole (a restarted plugin registers again).
 *   Registering the same content again is a renewal: the lease moves, the hooks do not.
 * - When a lease runs out, the plugin's failurePolicy Fail webhooks stay served (the gateway fails
 *   their calls closed, see lease-guard.ts) until the plugin registers again or is deregistered on
 *   purpose. Its Ignore webhooks are dropped: a dead plugin's Ignore hook would only fail open on
 *   every call, at the cost of an error and a metric each time. A registration with no Fail
 *   webhook is removed entirely.
 * - Deregister removes a registration, expired or not.
 */
import { err, formatFieldError, ok, parseWebhookConfiguration } from '@hookgate/admission';
import type { DefaultedConfiguration, Result } from '@hookgate/admission';
import { STATIC_SOURCE_LABEL, findConflicts, registrationLabel, type HookSource } from './conflicts.js';
import { parseRegistration } from './parse-registration.js';
import { checkRegistrationTls } from './registration-tls.js';
import {
  conflictingRegistration,
  invalidRegistration,
  outsideRegistration,
  refusal,
  staticPlugin,
  unknownPlugin,
} from './refusal.js';
import type {
  DeregisterOutcome,
  LeaseState,
  RegisterInput,
  RegisterOutcome,
  Registration,
  RegistryChange,
  RegistryRefusal,
  RegistrySnapshot,
  ServedRegistration,
  StaticSources,
} from './types.js';

export interface RegistrationStoreOptions {
  /** Clock in ms; Date.now by default. Persisted registrations need a wall clock. */
  readonly now?: () => number;
  /** Lease granted when a plugin asks for 0. Default 30 s. */
  readonly defaultLeaseSeconds?: number;
  /** Requested leases are clamped to [min, max]. Defaults 5 s and 3600 s. */
  readonly minLeaseSeconds?: number;
  readonly maxLeaseSeconds?: number;
  /** Accept `http://` loopback URLs in configurations, as static configuration does in local use. */
  readonly allowHttpLoopback?: boolean;
  /** The static side at start; replaceStatic() changes it on reload. */
  readonly static?: StaticSources;
  /**
   * Problems with hooks the gateway's registration in the apiserver does not cover (the gateway
   * would never see their requests); a registration with any is refused. No check when absent.
   */
  readonly outsideRegistration?: (configurations: readonly DefaultedConfiguration[]) => string[];
}

export const DEFAULT_LEASE_SECONDS = 30;

interface Entry {
  readonly registration: Registration;
  readonly lease: LeaseState;
}

type Listener = (change: RegistryChange) => void;

const NO_STATIC: StaticSources = { plugins: [], configurations: [] };

export class RegistrationStore {
  readonly #now: () => number;
  readonly #defaultLease: number;
  readonly #minLease: number;
  readonly #maxLease: number;
  readonly #allowHttpLoopback: boolean;
  readonly #outsideRegistration: RegistrationStoreOptions['outsideRegistration'];
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<Listener>();
  #static: StaticSources;
  #generation = 1;
  #snapshot: RegistrySnapshot | undefined;

  constructor(options: RegistrationStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#minLease = options.minLeaseSeconds ?? 5;
    this.#maxLease = options.maxLeaseSeconds ?? 3600;
    this.#defaultLease = this.#clampLease(options.defaultLeaseSeconds ?? DEFAULT_LEASE_SECONDS);
    this.#allowHttpLoopback = options.allowHttpLoopback ?? false;
    this.#static = options.static ?? NO_STATIC;
    this.#outsideRegistration = options.outsideRegistration;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Called after every change, with the new snapshot. Returns the unsubscribe function. */
  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  register(input: RegisterInput): Result<RegisterOutcome, RegistryRefusal> {
    const parsed = parseRegistration(input, { allowHttpLoopback: this.#allowHttpLoopback });
    if (!parsed.ok) return err(invalidRegistration(input.plugin, parsed.problems));
    const { plugin, target, tls, configurations } = parsed.value;

    const declared = this.#static.plugins.find((p) => p.name === plugin);
    if (declared !== undefined) return err(staticPlugin(plugin, declared.target, 'register'));
    const conflicts = findConflicts({ label: registrationLabel(plugin), configurations }, this.#sourcesExcept(plugin));
    if (conflicts.length > 0) return err(conflictingRegistration(plugin, conflicts));
    const outside = this.#outsideRegistration?.(configurations) ?? [];
    if (outside.length > 0) return err(outsideRegistration(plugin, outside));

    const now = this.#now();
    const requested = input.leaseSeconds ?? 0;
    const leaseSeconds = requested > 0 ? this.#clampLease(requested) : this.#defaultLease;
    const previous = this.#entries.get(plugin);
    const sameContent =
      previous !== undefined &&
      previous.registration.target === target &&
      sameTls(previous.registration.tls, tls) &&
      sameConfigurations(previous.registration.configurations, configurations);
    const change: RegisterOutcome['change'] =
      previous === undefined ? 'new' : sameContent && previous.lease === 'active' ? 'renewed' : 'replaced';
    const registration: Registration = {
      plugin,
      target,
      ...(tls === undefined ? {} : { tls }),
      configurations,
      leaseSeconds,
      // A new epoch unless this is a renewal: the gateway opens a fresh channel to a plugin that came back.
      registeredAt: change === 'renewed' ? previous!.registration.registeredAt : now,
      renewedAt: now,
      expiresAt: now + leaseSeconds * 1000,
    };
    this.#entries.set(plugin, { registration, lease: 'active' });
    this.#changed(change !== 'renewed', change === 'renewed' ? 'renew' : 'register', plugin);
    return ok({ plugin, leaseSeconds, hooks: hookNames(configurations), change, generation: this.#generation });
  }

  deregister(plugin: string): Result<DeregisterOutcome, RegistryRefusal> {
    const entry = this.#entries.get(plugin);
    if (entry === undefined) {
      const declared = this.#static.plugins.find((p) => p.name === plugin);
      if (declared !== undefined) return err(staticPlugin(plugin, declared.target, 'deregister'));
      return err(unknownPlugin(plugin, [...this.#entries.keys()].sort()));
    }
    this.#entries.delete(plugin);
    this.#changed(true, 'deregister', plugin);
    return ok({ plugin, hooks: hookNames(served(entry)), generation: this.#generation });
  }

  /**
   * Applies the leases that ran out by now(). Returns the plugins whose lease expired here.
   * Lookups of a lease (leaseOf, the lease guard) read the clock themselves, so a late sweep
   * never lets a call through to a plugin whose lease is over.
   */
  sweep(): string[] {
    const expired = this.#expireDue();
    for (const plugin of expired) this.#changed(true, 'expire', plugin);
    return expired;
  }

  #expireDue(): string[] {
    const now = this.#now();
    const expired: string[] = [];
    for (const [plugin, entry] of this.#entries) {
      if (entry.lease !== 'active' || now < entry.registration.expiresAt) continue;
      expired.push(plugin);
      if (hasFailWebhook(entry.registration.configurations)) this.#entries.set(plugin, { ...entry, lease: 'expired' });
      else this.#entries.delete(plugin);
    }
    return expired;
  }

  /** Clock ms of the next lease to run out, for the sweep timer; undefined when none is active. */
  nextExpiry(): number | undefined {
    let next: number | undefined;
    for (const entry of this.#entries.values()) {
      if (entry.lease === 'active' && (next === undefined || entry.registration.expiresAt < next))
        next = entry.registration.expiresAt;
    }
    return next;
  }

  /** The plugin's lease as of now (expired as soon as the clock passes it, swept or not). */
  leaseOf(plugin: string): { readonly state: LeaseState; readonly expiresAt: number } | undefined {
    const entry = this.#entries.get(plugin);
    if (entry === undefined) return undefined;
    const state = entry.lease === 'expired' || this.#now() >= entry.registration.expiresAt ? 'expired' : 'active';
    return { state, expiresAt: entry.registration.expiresAt };
  }

  snapshot(): RegistrySnapshot {
    this.#snapshot ??= Object.freeze({
      generation: this.#generation,
      registrations: Object.freeze(
        [...this.#entries.values()]
          .sort((a, b) => (a.registration.plugin < b.registration.plugin ? -1 : 1))
          .map((entry): ServedRegistration =>
            Object.freeze({ ...entry.registration, lease: entry.lease, served: served(entry) }),
          ),
      ),
    });
    return this.#snapshot;
  }

  /**
   * A configuration reload. Refused (the previous static side stays) when the new static side
   * conflicts with a registration: the operator decides which source gives up the name.
   */
  replaceStatic(sources: StaticSources): Result<void, RegistryRefusal> {
    const problems: string[] = [];
    for (const [plugin, entry] of this.#entries) {
      const declared = sources.plugins.find((p) => p.name === plugin);
      if (declared !== undefined) {
        problems.push(
          `plugin ${JSON.stringify(plugin)} is declared under plugins (target ${declared.target}) but is also registered (target ${entry.registration.target}): ` +
            'deregister it first, or give the static plugin another name',
        );
      }
      problems.push(
        ...findConflicts({ label: registrationLabel(plugin), configurations: entry.registration.configurations }, [
          { label: STATIC_SOURCE_LABEL, configurations: sources.configurations },
        ]),
      );
    }
    if (problems.length > 0)
      return err(
        refusal(
          'conflict',
          'the new static configuration conflicts with registered plugins; keeping the previous one',
          problems,
        ),
      );
    this.#static = sources;
    return ok(undefined);
  }

  /**
   * Registrations saved by a previous gateway process (registration-file.ts). Each is validated and
   * checked for conflicts again; a lease that ran out while the gateway was down is applied at once,
   * so a dead plugin's Fail hooks come back failing closed. Returns what was dropped, and why.
   */
  restore(registrations: readonly Registration[]): {
    readonly restored: string[];
    readonly dropped: { readonly plugin: string; readonly reason: string }[];
  } {
    const restored: string[] = [];
    const dropped: { plugin: string; reason: string }[] = [];
    for (const saved of registrations) {
      const checked = this.#recheck(saved);
      if (typeof checked === 'string') {
        dropped.push({ plugin: saved.plugin, reason: checked });
        continue;
      }
      this.#entries.set(saved.plugin, { registration: { ...saved, configurations: checked }, lease: 'active' });
      restored.push(saved.plugin);
    }
    this.#expireDue();
    // A lease that ran out with no Fail webhook to keep removed the registration just now.
    const kept = restored.filter((plugin) => this.#entries.has(plugin));
    if (restored.length > 0) this.#changed(true, 'restore');
    return { restored: kept, dropped };
  }

  /** The saved configurations validated and defaulted again, or why the registration cannot come back. */
  #recheck(saved: Registration): DefaultedConfiguration[] | string {
    if (this.#entries.has(saved.plugin)) return `plugin ${JSON.stringify(saved.plugin)} is registered already`;
    const declared = this.#static.plugins.find((p) => p.name === saved.plugin);
    if (declared !== undefined) return staticPlugin(saved.plugin, declared.target, 'register').message;
    // Plaintext to a network target, saved by a gateway from before registrations had TLS: serving it
    // would mean calling in plaintext. (A saved CA is not checked again: one that expired makes the
    // calls fail, so Fail hooks fail closed instead of vanishing.)
    if (saved.tls === undefined) {
      const plaintext = checkRegistrationTls(saved.target, undefined);
      if (!plaintext.ok) return invalidRegistration(saved.plugin, plaintext.problems).message;
    }
    const knownPlugins = new Set([saved.plugin]);
    const configurations: DefaultedConfiguration[] = [];
    const invalid: string[] = [];
    for (const c of saved.configurations as readonly unknown[]) {
      const config = (typeof c === 'object' && c !== null ? c : {}) as Partial<DefaultedConfiguration>;
      const document = {
        apiVersion: config.apiVersion,
        kind: config.kind,
        metadata: { name: config.name },
        webhooks: config.webhooks,
      };
      const parsed = parseWebhookConfiguration(document, { knownPlugins, allowHttpLoopback: this.#allowHttpLoopback });
      if (parsed.ok) configurations.push(parsed.value);
      else
        invalid.push(
          `${String(config.kind)} ${JSON.stringify(config.name)}: ${parsed.error.map(formatFieldError).join(', ')}`,
        );
    }
    if (invalid.length > 0) return invalidRegistration(saved.plugin, invalid).message;
    const conflicts = findConflicts(
      { label: registrationLabel(saved.plugin), configurations },
      this.#sourcesExcept(saved.plugin),
    );
    if (conflicts.length > 0) return conflictingRegistration(saved.plugin, conflicts).message;
    return configurations;
  }

  #sourcesExcept(plugin: string): HookSource[] {
    const sources: HookSource[] = [{ label: STATIC_SOURCE_LABEL, configurations: this.#static.configurations }];
    for (const [other, entry] of this.#entries) {
      // An expired registration keeps its names: its Fail hooks are still served.
      if (other !== plugin)
        sources.push({ label: registrationLabel(other), configurations: entry.registration.configurations });
    }
    return sources;
  }

  #clampLease(seconds: number): number {
    return Math.min(this.#maxLease, Math.max(this.#minLease, Math.round(seconds)));
  }

  #changed(hooksChanged: boolean, reason: RegistryChange['reason'], plugin?: string): void {
    if (hooksChanged) this.#generation++;
    this.#snapshot = undefined;
    const change: RegistryChange = {
      snapshot: this.snapshot(),
      hooksChanged,
      reason,
      ...(plugin === undefined ? {} : { plugin }),
    };
    for (const listener of this.#listeners) listener(change);
  }
}

/** What the gateway serves of a registration (see the file comment). */
function served(entry: Entry): readonly DefaultedConfiguration[] {
  if (entry.lease === 'active') return entry.registration.configurations;
  return entry.registration.configurations
    .map((c) => ({ ...c, webhooks: c.webhooks.filter((w) => w.failurePolicy === 'Fail') }))
    .filter((c) => c.webhooks.length > 0);
}

function hasFailWebhook(configurations: readonly DefaultedConfiguration[]): boolean {
  return configurations.some((c) => c.webhooks.some((w) => w.failurePolicy === 'Fail'));
}

export function hookNames(configurations: readonly DefaultedConfiguration[]): string[] {
  return configurations.flatMap((c) => c.webhooks.map((w) => `${c.name}/${w.name}`));
}

/** A new CA or server name is a new registration: the gateway connects afresh with it. */
function sameTls(a: Registration['tls'], b: Registration['tls']): boolean {
  return a?.ca === b?.ca && a?.serverName === b?.serverName;
}

function sameConfigurations(a: readonly DefaultedConfiguration[], b: readonly DefaultedConfiguration[]): boolean {
  // Both come from the same defaulting code, so equal content serialises identically.
  return JSON.stringify(a) === JSON.stringify(b);
}
