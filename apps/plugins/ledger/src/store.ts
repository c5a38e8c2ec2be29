/**
 * The ledger's Redis side: three Lua scripts (lua/*.lua, documented there), so that every check and
 * write on a reservation is atomic. Keys are `<keyPrefix><logical key>`; each is a hash with
 * owner, state (pending | confirmed), tokens (the admissions whose claims are not settled yet).
 */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const script = (name: string): string => readFileSync(new URL(`../lua/${name}.lua`, import.meta.url), 'utf8');
const SCRIPTS = {
  ledgerClaim: script('claim'),
  ledgerSettle: script('settle'),
  ledgerRelease: script('release'),
} as const;

export type ClaimResult = { ok: true } | { ok: false; index: number; holder: string };
export type SettleResult = 'confirmed' | 'restored' | 'released' | 'kept' | 'stale' | 'absent' | 'taken';
export type ReleaseResult = 'released' | 'busy' | 'not-owner' | 'absent';

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
  claim(keys: readonly string[], owner: string, token: string, checkOnly: boolean): Promise<ClaimResult>;
  settle(
    key: string,
    outcome: 'PERSISTED' | 'NOT_PERSISTED',
    claim: { token: string; owner: string; identity?: string; restore: boolean },
  ): Promise<SettleResult>;
  release(key: string, owner: string): Promise<ReleaseResult>;
  /** The reservation behind a logical key, for tests and operators. */
  inspect(key: string): Promise<Reservation | undefined>;
}

type ScriptCommands = {
  ledgerClaim(numKeys: number, ...keysAndArgs: string[]): Promise<[number, number?, string?]>;
  ledgerSettle(key: string, ...args: string[]): Promise<string>;
  ledgerRelease(key: string, owner: string): Promise<string>;
};

export interface LedgerStoreOptions {
  keyPrefix: string;
  /** How long an unsettled (pending) claim lives, in ms. */
  pendingTtlMs: number;
  clock?: () => number;
}

export function createLedgerStore(redis: Redis, options: LedgerStoreOptions): LedgerStore {
  const { keyPrefix, pendingTtlMs, clock = Date.now } = options;
  defineScripts(redis);
  const commands = redis as unknown as ScriptCommands;
  const redisKey = (key: string): string => `${keyPrefix}${key}`;

  return {
    async claim(keys, owner, token, checkOnly) {
      if (keys.length === 0) return { ok: true };
      const [status, index, holder] = await commands.ledgerClaim(
        keys.length,
        ...keys.map(redisKey),
        owner,
        token,
        checkOnly ? '1' : '0',
        String(clock()),
        String(pendingTtlMs),
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
      );
      return result as SettleResult;
    },

    async release(key, owner) {
      return (await commands.ledgerRelease(redisKey(key), owner)) as ReleaseResult;
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

/** ioredis sends EVALSHA and falls back to EVAL once per connection: the scripts are not resent on every call. */
function defineScripts(redis: Redis): void {
  const defined = redis as unknown as Record<string, unknown>;
  if (typeof defined['ledgerClaim'] !== 'function') redis.defineCommand('ledgerClaim', { lua: SCRIPTS.ledgerClaim });
  if (typeof defined['ledgerSettle'] !== 'function')
    redis.defineCommand('ledgerSettle', { numberOfKeys: 1, lua: SCRIPTS.ledgerSettle });
  if (typeof defined['ledgerRelease'] !== 'function')
    redis.defineCommand('ledgerRelease', { numberOfKeys: 1, lua: SCRIPTS.ledgerRelease });
}
