/**
 * The emulated apiserver's webhook dispatch for one review. Through the gateway: POST /mutate,
 * apply the combined patch, POST /validate. Plain webhooks: each mutating hook in turn, its patch
 * applied before the next one, then all validating hooks concurrently. Every call gets a fresh
 * uid and `?timeout=10s`, and its answer is checked (HTTP 200, same uid, allowed). Connections are
 * kept alive and not pipelined, as the apiserver's HTTP/1.1 client does; https origins are
 * verified against the target's CA.
 */
import { Pool } from 'undici';
import type { JsonObject } from '../hooks/bench-hooks.js';
import { checkAnswer, type CheckedAnswer } from './answer-check.js';
import { post } from './post.js';
import type { TargetSpec } from './protocol.js';
import { applyResponsePatch, type EncodedReview, type ReviewBodies } from './review-bodies.js';

export type AdmitOne = () => Promise<void>;

const TIMEOUT_QUERY = '?timeout=10s';

export class Dispatchers {
  readonly #pools = new Map<string, Pool>();
  readonly #connections: number;

  constructor(connectionsPerOrigin: number) {
    this.#connections = connectionsPerOrigin;
  }

  admitter(target: TargetSpec, bodies: ReviewBodies): AdmitOne {
    if (target.kind === 'gateway') {
      const mutate = this.#endpoint(`${target.origin}/mutate`, target.ca);
      const validate = this.#endpoint(`${target.origin}/validate`, target.ca);
      return async () => {
        await validate(bodies, await mutatingChain([mutate], bodies));
      };
    }
    const mutating = target.mutating.map((url) => this.#endpoint(url, target.ca));
    const validating = target.validating.map((url) => this.#endpoint(url, target.ca));
    if (validating.length === 1)
      return async () => void (await validating[0]!(bodies, await mutatingChain(mutating, bodies)));
    return async () => {
      const encoded = await mutatingChain(mutating, bodies);
      await Promise.all(validating.map((call) => call(bodies, encoded)));
    };
  }

  async drop(target: TargetSpec): Promise<void> {
    const urls = target.kind === 'gateway' ? [target.origin] : [...target.mutating, ...target.validating];
    await Promise.all(
      urls.map(async (url) => {
        const origin = new URL(url).origin;
        const pool = this.#pools.get(origin);
        this.#pools.delete(origin);
        await pool?.destroy();
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.destroy()));
    this.#pools.clear();
  }

  #pool(origin: string, ca: string | undefined): Pool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.#connections,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
        ...(ca === undefined ? {} : { connect: { ca, rejectUnauthorized: true } }),
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** One webhook endpoint: sends an encoded review with a fresh uid and checks the answer. */
  #endpoint(url: string, ca: string | undefined): Endpoint {
    const parsed = new URL(url);
    const pool = this.#pool(parsed.origin, ca);
    const path = parsed.pathname + TIMEOUT_QUERY;
    return async (bodies, encoded) => {
      const uid = bodies.nextUid();
      const answer = await post(pool, path, encoded.withUid(uid));
      return checkAnswer(url, answer.statusCode, answer.body, uid);
    };
  }
}

type Endpoint = (bodies: ReviewBodies, encoded: EncodedReview) => Promise<CheckedAnswer>;

/** Runs mutating calls in order, each on the object as patched so far; returns the final encoding. */
async function mutatingChain(calls: readonly Endpoint[], bodies: ReviewBodies): Promise<EncodedReview> {
  let object: JsonObject | undefined;
  let encoded = bodies.original;
  for (const call of calls) {
    const { patch } = await call(bodies, encoded);
    if (patch === undefined) continue;
    object ??= bodies.copyOfObject();
    applyResponsePatch(object, patch);
    encoded = bodies.encode(object);
  }
  return encoded;
}
