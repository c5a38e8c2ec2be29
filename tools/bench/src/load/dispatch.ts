/**
 * The emulated apiserver's webhook dispatch for one review. Through the gateway: POST /mutate,
 * apply the combined patch, POST /validate. Plain webhooks: each mutating hook in turn, its patch
 * applied before the next one, then all validating hooks concurrently. Every call gets a fresh
 * uid and `?timeout=10s`, and its answer is checked (HTTP 200, same uid, allowed).
 */
import { Pool } from 'undici';
import type { JsonObject } from '../hooks/bench-hooks.js';
import type { TargetSpec } from './protocol.js';
import { applyResponsePatch, type EncodedReview, type ReviewBodies } from './review-bodies.js';

export type AdmitOne = () => Promise<void>;

interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  patch?: string;
  status?: { message?: string };
}

const TIMEOUT_QUERY = '?timeout=10s';

export class Dispatchers {
  readonly #pools = new Map<string, Pool>();
  readonly #connections: number;

  constructor(connectionsPerOrigin: number) {
    this.#connections = connectionsPerOrigin;
  }

  admitter(target: TargetSpec, bodies: ReviewBodies): AdmitOne {
    if (target.kind === 'gateway') {
      const mutate = this.#endpoint(`${target.origin}/mutate`);
      const validate = this.#endpoint(`${target.origin}/validate`);
      return async () => {
        await validate(bodies, await mutatingChain([mutate], bodies));
      };
    }
    const mutating = target.mutating.map((url) => this.#endpoint(url));
    const validating = target.validating.map((url) => this.#endpoint(url));
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

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.#connections,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** One webhook endpoint: sends an encoded review with a fresh uid and checks the answer. */
  #endpoint(url: string): Endpoint {
    const parsed = new URL(url);
    const pool = this.#pool(parsed.origin);
    const path = parsed.pathname + TIMEOUT_QUERY;
    return async (bodies, encoded) => {
      const uid = bodies.nextUid();
      const { statusCode, body } = await pool.request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: encoded.withUid(uid),
      });
      const text = await body.text();
      if (statusCode !== 200) throw new Error(`${url}: HTTP ${statusCode}: ${text.slice(0, 300)}`);
      const response = (JSON.parse(text) as { response?: AdmissionResponse }).response;
      if (response?.uid !== uid)
        throw new Error(`${url}: the answer's uid ${JSON.stringify(response?.uid)} is not the request's ${uid}`);
      if (response.allowed !== true)
        throw new Error(`${url}: denied: ${response.status?.message ?? 'without explanation'}`);
      return response;
    };
  }
}

type Endpoint = (bodies: ReviewBodies, encoded: EncodedReview) => Promise<AdmissionResponse>;

/** Runs mutating calls in order, each on the object as patched so far; returns the final encoding. */
async function mutatingChain(calls: readonly Endpoint[], bodies: ReviewBodies): Promise<EncodedReview> {
  let object: JsonObject | undefined;
  let encoded = bodies.original;
  for (const call of calls) {
    const response = await call(bodies, encoded);
    if (response.patch === undefined) continue;
    object ??= bodies.copyOfObject();
    applyResponsePatch(object, response.patch);
    encoded = bodies.encode(object);
  }
  return encoded;
}
