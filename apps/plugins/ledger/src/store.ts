/**
 * The ledger's Redis side: three Lua scripts (lua/*.lua, documented there), so that every check and
 * write on a reservation is atomic. Keys are `<keyPrefix><logical key>`; each is a hash with
 * owner, state (pending | confirmed), tokens (the admissions whose claims are not settled yet).
 */
import { readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';

const script = (name: string): string => readFileSync(new URL(`../lua/${name}.lua`, import.meta.url), 'utf8');
const SCRIPTS = {
  ledgerClaim: script('claim'),
  ledgerSettle: script('settle'),
  ledgerRelease: script('release'),
  ledgerOrphan: script('orphan'),
} as const;

export type ClaimResult = { ok: true } | { ok: false; index: number; holder: string };
export type SettleResult = 'confirmed' | 'restored' | 'released' | 'kept' | 'stale' | 'absent' | 'taken';
export type ReleaseResult = 'released' | 'busy' | 'not-owner' | 'absent';
export type OrphanResult = 'released' | 'changed' | 'not-owner' | 'absent';

/** The object a claim was made for, as the admission request named it (resync looks it up). */
export interface ClaimRef {
  group: string;
  version: string;
  resource: string;
  namespace: string;
  name: string;
}

/** One reservation as resync lists it. */
export interface HeldReservation {
  /** The logical key (without keyPrefix). */
  key: string;
  owner: string;
  ref: ClaimRef;
  /** The persisted object's uid, once a PERSISTED reconcile recorded it. */
  uid: string | undefined;
  /** When the reservation was last written (orphan.lua compares it). */
  touchedAt: string;
}

export interface Reservation {
  owner: string;
  state: 'pending' | 'confirmed';
  tokens: string[];
  claimedAt: number;
  /** ms left before a pending claim expires; -1 when confirmed (no expiry). */
  ttlMs: number;
}

export interface LedgerStore {
  /** Claims every key for the owner under this token, or none if another owner holds one. checkOnly: dryRun. */
  claim(
    keys: readonly string[],
    owner: string,
    token: string,
    checkOnly: boolean,
    ref?: ClaimRef,
  ): Promise<ClaimResult>;
  settle(
    key: string,
    outcome: 'PERSISTED' | 'NOT_PERSISTED',
    claim: { token: string; owner: string; identity?: string; restore: boolean; uid?: string },
  ): Promise<SettleResult>;
  release(key: string, owner: string): Promise<ReleaseResult>;
  /** Deletes a reservation whose object is gone, if it is unchanged since it was listed. */
  releaseOrphan(key: string, owner: string, touchedAt: string): Promise<OrphanResult>;
  /** One SCAN step over the reservations: those that name their object ('' cursor: the first step; '0' back: done). */
  listHeld(cursor: string, count: number): Promise<{ cursor: string; held: HeldReservation[] }>;
  /** The reservation behind a logical key, for tests and operators. */
  inspect(key: string): Promise<Reservation | undefined>;
}

type ScriptCommands = {
  ledgerClaim(numKeys: number, ...keysAndArgs: string[]): Promise<[number, number?, string?]>;
  ledgerSettle(key: string, ...args: string[]): Promise<string>;
  ledgerRelease(key: string, owner: string): Promise<string>;
  ledgerOrphan(key: string, owner: string, touchedAt: string): Promise<string>;
};

export interface LedgerStoreOptions {
  keyPrefix: string;
  /** How long an unsettled (pending) claim lives, in ms. */
  pendingTtlMs: number;
  clock?: () => number;
}

export function createLedgerStore(redis: Redis | Cluster, options: LedgerStoreOptions): LedgerStore {
  const { keyPrefix, pendingTtlMs, clock = Date.now } = options;
  defineScripts(redis);
  const commands = redis as unknown as ScriptCommands;
  const redisKey = (key: string): string => `${keyPrefix}${key}`;

  return {
    async claim(keys, owner, token, checkOnly, ref) {
      if (keys.length === 0) return { ok: true };
      const [status, index, holder] = await commands.ledgerClaim(
        keys.length,
        ...keys.map(redisKey),
        owner,
        token,
        checkOnly ? '1' : '0',
        String(clock()),
        String(pendingTtlMs),
        ref === undefined ? '' : JSON.stringify(ref),
      );
      if (status === 1) return { ok: true };
      return { ok: false, index: (index ?? 1) - 1, holder: holder ?? '' };
    },

    async settle(key, outcome, claim) {
      const result = await commands.ledgerSettle(
        redisKey(key),
        outcome,
        claim.token,
        claim.owner,
        claim.identity ?? '',
        claim.restore ? '1' : '0',
        String(clock()),
        claim.uid ?? '',
      );
      return result as SettleResult;
    },

    async release(key, owner) {
      return (await commands.ledgerRelease(redisKey(key), owner)) as ReleaseResult;
    },

    async releaseOrphan(key, owner, touchedAt) {
      return (await commands.ledgerOrphan(redisKey(key), owner, touchedAt)) as OrphanResult;
    },

    async listHeld(cursor, count) {
      const [next, keys] = await (
        await scanNode(redis, keyPrefix)
      ).scan(cursor === '' ? '0' : cursor, 'MATCH', `${escapeGlob(keyPrefix)}*`, 'COUNT', count);
      const held: HeldReservation[] = [];
      // One round trip for the page; a key of another type under the prefix (not the ledger's) is skipped.
      const answers =
        keys.length === 0 ? [] : ((await keys.reduce((p, key) => p.hgetall(key), redis.pipeline()).exec()) ?? []);
      keys.forEach((redisKeyName, i) => {
        const [error, fields] = answers[i] ?? [null, {}];
        if (error !== null) return;
        const reservation = heldOf(redisKeyName.slice(keyPrefix.length), fields as Record<string, string>);
        if (reservation !== undefined) held.push(reservation);
      });
      return { cursor: next, held };
    },

    async inspect(key) {
      const [[, fields], [, ttlMs]] = (await redis.multi().hgetall(redisKey(key)).pttl(redisKey(key)).exec()) as [
        [null, Record<string, string>],
        [null, number],
      ];
      if (fields['owner'] === undefined) return undefined;
      return {
        owner: fields['owner'],
        state: fields['state'] === 'confirmed' ? 'confirmed' : 'pending',
        tokens: JSON.parse(fields['tokens'] ?? '[]') as string[],
        claimedAt: Number(fields['claimedAt'] ?? 0),
        ttlMs,
      };
    },
  };
}

/** A reservation hash as resync lists it; one without a readable ref (claimed before refs were kept) is left out. */
function heldOf(key: string, fields: Record<string, string>): HeldReservation | undefined {
  const owner = fields['owner'];
  const touchedAt = fields['touchedAt'] ?? fields['claimedAt'];
  if (owner === undefined || touchedAt === undefined || fields['ref'] === undefined) return undefined;
  let ref: unknown;
  try {
    ref = JSON.parse(fields['ref']);
  } catch {
    return undefined;
  }
  if (typeof ref !== 'object' || ref === null) return undefined;
  const r = ref as Record<string, unknown>;
  const text = (name: string) => (typeof r[name] === 'string' ? (r[name] as string) : undefined);
  const [group, version, resource, namespace, name] = ['group', 'version', 'resource', 'namespace', 'name'].map(text);
  if (group === undefined || version === undefined || resource === undefined || namespace === undefined || !name) {
    return undefined;
  }
  return { key, owner, ref: { group, version, resource, namespace, name }, uid: fields['uid'], touchedAt };
}

/** A key prefix is literal: glob characters in it must not widen the SCAN. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** ioredis sends EVALSHA and falls back to EVAL once per connection: the scripts are not resent on every call. */
/**
 * Where SCAN walks: the Redis itself, or on Cluster the master owning the key prefix's slot (every
 * ledger key is there: the prefix's {hash tag} is required on Cluster, redis.ts).
 */
async function scanNode(redis: Redis | Cluster, keyPrefix: string): Promise<Redis> {
  if (!redis.isCluster) return redis as Redis;
  const cluster = redis as Cluster;
  const slot = Number(await cluster.call('CLUSTER', 'KEYSLOT', keyPrefix));
  const owner = cluster.slots[slot]?.[0];
  const node = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === owner);
  if (node === undefined) throw new Error(`no cluster node owns slot ${slot} of keyPrefix ${keyPrefix} yet`);
  return node;
}

function defineScripts(redis: Redis | Cluster): void {
  const defined = redis as unknown as Record<string, unknown>;
  if (typeof defined['ledgerClaim'] !== 'function') redis.defineCommand('ledgerClaim', { lua: SCRIPTS.ledgerClaim });
  if (typeof defined['ledgerSettle'] !== 'function')
    redis.defineCommand('ledgerSettle', { numberOfKeys: 1, lua: SCRIPTS.ledgerSettle });
  if (typeof defined['ledgerRelease'] !== 'function')
    redis.defineCommand('ledgerRelease', { numberOfKeys: 1, lua: SCRIPTS.ledgerRelease });
  if (typeof defined['ledgerOrphan'] !== 'function')
    redis.defineCommand('ledgerOrphan', { numberOfKeys: 1, lua: SCRIPTS.ledgerOrphan });
}
