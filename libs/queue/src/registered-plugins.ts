/**
 * Plugins registered at run time, as gateways tell controllers about them through Redis. A
 * gateway's Registry knows where each registered plugin listens; a controller needs that to call
 * its Reconcile. Each gateway primary publishes its current set under its own key, with a TTL it
 * keeps renewing (a gateway that dies stops counting once its key lapses); the controller reads the
 * union of every gateway's set.
 *
 *   index  <prefix>:hookgate-registered-plugins               set of gateway ids
 *   set    <prefix>:hookgate-registered-plugins:<gatewayId>   JSON PublishedPluginSet, with a TTL
 *
 * Both keys carry the queue prefix, so with the default hash tag `{hookgate}` they live in the
 * queues' slot on Redis Cluster (MULTI and MGET across them work).
 */
import type { RedisClient } from './redis-client.js';
import { pluginOfQueueName, QUEUE_NAME_PREFIX } from './queue-names.js';

export const REGISTERED_PLUGINS_SCHEMA = 1;
const KEY_NAME = 'hookgate-registered-plugins';

/**
 * A registration's TLS as published: the CA bundle (PEM) that signs the plugin's serving certificate
 * and the server name to verify. Public material; a controller presents its own client certificate.
 */
export interface PublishedPluginTls {
  readonly ca: string;
  readonly serverName?: string;
}

/**
 * One plugin a gateway's Registry holds. `tls` was added within schema 1 as an optional member: sets
 * published before it decode as plaintext plugins, which is what they were (a gateway of that
 * version called them so). A controller older than `tls` ignores it and calls without TLS, which
 * the plugin's TLS listener refuses: it fails closed, never in plaintext.
 */
export interface PublishedPlugin {
  readonly name: string;
  /** `unix:///abs/path.sock` (reachable on the gateway's node only) or `host:port`. */
  readonly target: string;
  /** Absent: plaintext (a unix socket or a loopback address; the Registry refuses other targets without TLS). */
  readonly tls?: PublishedPluginTls;
  /** When this registration started (a new value: the plugin came back, connect afresh). */
  readonly registeredAt: number;
  /** When its lease runs out unless renewed. */
  readonly expiresAt: number;
}

/** What one gateway publishes: its whole run-time plugin set. */
export interface PublishedPluginSet {
  readonly schema: typeof REGISTERED_PLUGINS_SCHEMA;
  readonly gateway: string;
  /** The Registry's generation when published. */
  readonly generation: number;
  readonly publishedAt: number;
  readonly plugins: readonly PublishedPlugin[];
}

export function registeredPluginsIndexKey(prefix: string): string {
  return `${prefix}:${KEY_NAME}`;
}

export function registeredPluginsKey(prefix: string, gateway: string): string {
  return `${prefix}:${KEY_NAME}:${gateway}`;
}

/** Replaces `set.gateway`'s published set; it lapses after `ttlMs` unless published again. */
export async function publishRegisteredPlugins(
  redis: RedisClient,
  prefix: string,
  set: PublishedPluginSet,
  ttlMs: number,
): Promise<void> {
  await redis
    .multi()
    .sadd(registeredPluginsIndexKey(prefix), set.gateway)
    .set(registeredPluginsKey(prefix, set.gateway), JSON.stringify(set), 'PX', ttlMs)
    .exec();
}

/** Removes a gateway's set (at its shutdown: its plugins are no longer registered anywhere it knows). */
export async function withdrawRegisteredPlugins(redis: RedisClient, prefix: string, gateway: string): Promise<void> {
  await redis
    .multi()
    .srem(registeredPluginsIndexKey(prefix), gateway)
    .del(registeredPluginsKey(prefix, gateway))
    .exec();
}

export interface RegisteredPluginsRead {
  /** Every gateway's set that is present and readable. */
  readonly sets: readonly PublishedPluginSet[];
  /** One line per key that could not be used (it is skipped), naming the key and what is wrong. */
  readonly problems: readonly string[];
}

/** Reads every gateway's published set. Gateways whose key lapsed are dropped from the index. */
export async function readRegisteredPlugins(redis: RedisClient, prefix: string): Promise<RegisteredPluginsRead> {
  const index = registeredPluginsIndexKey(prefix);
  const gateways = (await redis.smembers(index)).sort();
  if (gateways.length === 0) return { sets: [], problems: [] };
  const keys = gateways.map((gateway) => registeredPluginsKey(prefix, gateway));
  const values = await redis.mget(...keys);
  const sets: PublishedPluginSet[] = [];
  const problems: string[] = [];
  const lapsed: string[] = [];
  values.forEach((value, i) => {
    if (value === null) return void lapsed.push(gateways[i]!);
    const decoded = decodePublishedPluginSet(value);
    if (typeof decoded === 'string') problems.push(`${keys[i]}: ${decoded}`);
    else sets.push(decoded);
  });
  // A gateway that publishes again re-adds itself; one that died leaves only its id behind.
  if (lapsed.length > 0) await redis.srem(index, ...lapsed);
  return { sets, problems };
}

/** A published set from its JSON, or what is wrong with it. */
export function decodePublishedPluginSet(json: string): PublishedPluginSet | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return 'not JSON';
  }
  if (!isRecord(value)) return 'not an object';
  if (value['schema'] !== REGISTERED_PLUGINS_SCHEMA)
    return `schema ${JSON.stringify(value['schema'])} is not ${REGISTERED_PLUGINS_SCHEMA} (a gateway of another version?)`;
  const { gateway, generation, publishedAt, plugins } = value;
  if (typeof gateway !== 'string' || gateway === '') return 'gateway: must be a non-empty string';
  if (!isCount(generation)) return 'generation: must be a non-negative integer';
  if (!isCount(publishedAt)) return 'publishedAt: must be a time in ms';
  if (!Array.isArray(plugins)) return 'plugins: must be a list';
  const decoded: PublishedPlugin[] = [];
  for (const [i, plugin] of plugins.entries()) {
    if (!isRecord(plugin)) return `plugins[${i}]: must be an object`;
    const { name, target, registeredAt, expiresAt, tls } = plugin;
    if (typeof name !== 'string' || pluginOfQueueName(QUEUE_NAME_PREFIX + name) !== name)
      return `plugins[${i}].name: must be a lowercase RFC 1123 subdomain`;
    if (typeof target !== 'string' || target === '') return `plugins[${i}].target: must be a non-empty string`;
    if (!isCount(registeredAt) || !isCount(expiresAt))
      return `plugins[${i}]: registeredAt and expiresAt must be times in ms`;
    const decodedTls = decodeTls(tls);
    if (typeof decodedTls === 'string') return `plugins[${i}].tls${decodedTls}`;
    decoded.push({ name, target, registeredAt, expiresAt, ...(decodedTls === undefined ? {} : { tls: decodedTls }) });
  }
  return { schema: REGISTERED_PLUGINS_SCHEMA, gateway, generation, publishedAt, plugins: decoded };
}

/** A plugin of the union, with the gateways that published it. */
export interface RegisteredPlugin extends PublishedPlugin {
  readonly gateways: readonly string[];
}

export interface RegisteredPluginsUnion {
  readonly plugins: ReadonlyMap<string, RegisteredPlugin>;
  /** Plugins published with different targets by different gateways: the newest registration is used. */
  readonly conflicts: readonly { readonly name: string; readonly targets: readonly string[] }[];
}

/**
 * Every gateway's plugins in one map. A name published by several gateways with one target is one
 * plugin; with different targets, the most recent registration wins (it is the one that started
 * last) and the conflict is reported.
 */
export function unionOfRegisteredPlugins(sets: readonly PublishedPluginSet[]): RegisteredPluginsUnion {
  const byName = new Map<string, { plugin: PublishedPlugin; gateway: string }[]>();
  for (const set of sets) {
    for (const plugin of set.plugins) {
      const entries = byName.get(plugin.name) ?? [];
      entries.push({ plugin, gateway: set.gateway });
      byName.set(plugin.name, entries);
    }
  }
  const plugins = new Map<string, RegisteredPlugin>();
  const conflicts: { name: string; targets: string[] }[] = [];
  for (const [name, entries] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const newest = entries.reduce((a, b) => (b.plugin.registeredAt > a.plugin.registeredAt ? b : a));
    const targets = [...new Set(entries.map((e) => e.plugin.target))].sort();
    if (targets.length > 1) conflicts.push({ name, targets });
    // Only gateways holding the very registration (target and TLS) extend its lease.
    const same = entries.filter(
      (e) => e.plugin.target === newest.plugin.target && samePluginTls(e.plugin.tls, newest.plugin.tls),
    );
    plugins.set(name, {
      ...newest.plugin,
      expiresAt: Math.max(...same.map((e) => e.plugin.expiresAt)),
      gateways: same.map((e) => e.gateway).sort(),
    });
  }
  return { plugins, conflicts };
}

/** A published plugin's `tls`, undefined when absent, or what is wrong (after the field's path). */
function decodeTls(tls: unknown): PublishedPluginTls | undefined | string {
  if (tls === undefined) return undefined;
  if (!isRecord(tls)) return ': must be an object';
  const { ca, serverName } = tls;
  if (typeof ca !== 'string' || !ca.includes('-----BEGIN CERTIFICATE-----')) return '.ca: must be a PEM CA bundle';
  if (serverName !== undefined && (typeof serverName !== 'string' || serverName === ''))
    return '.serverName: must be a non-empty string when given';
  return serverName === undefined ? { ca } : { ca, serverName };
}

/** Whether two registrations are called with the same TLS (both plaintext, or the same CA and server name). */
export function samePluginTls(a: PublishedPluginTls | undefined, b: PublishedPluginTls | undefined): boolean {
  return a?.ca === b?.ca && a?.serverName === b?.serverName;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
