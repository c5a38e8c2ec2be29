/**
 * What `hookgate queue status` and `hookgate queue retry` share: which Redis (--redis, else
 * REDIS_URL, else redis://127.0.0.1:6379), one connection that fails fast with a clear message,
 * and the plugin queues under a prefix (given with --plugin, or found in Redis).
 */
import { Queue } from 'bullmq';
import {
  DEFAULT_QUEUE_PREFIX,
  REDIS_CLIENT_BEHAVIOUR,
  clusterPrefixProblem,
  createRedisClient,
  describeRedisError,
  discoverPluginQueues,
  parseRedisUrl,
  type RedisClient,
  reconcileQueueName,
  redisErrorCode,
  redactRedisUrl,
  validateQueuePrefix,
} from '@hookgate/queue';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Node's TLS errors for a server certificate from a CA the process does not trust (rediss://). */
const UNTRUSTED_CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

export interface QueueConnectionFlags {
  readonly redis?: string;
  readonly prefix: string;
  /** Only these plugins' queues; all found under the prefix when absent. */
  readonly plugin?: readonly string[];
}

export interface QueueConnection {
  readonly redis: RedisClient;
  /** The URL without its password, for messages. */
  readonly where: string;
  readonly prefix: string;
  /** The plugin queues, by plugin name, sorted. */
  readonly queues: ReadonlyMap<string, Queue>;
  close(): Promise<void>;
}

/** Opens the connection and the queues, or says in one line what is wrong (a thrown Error). */
export async function openQueues(
  flags: QueueConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<QueueConnection> {
  const url = flags.redis ?? (env['REDIS_URL'] || DEFAULT_REDIS_URL);
  const parsed = parseRedisUrl(url);
  const source = flags.redis !== undefined ? '--redis' : 'REDIS_URL';
  if (!parsed.ok) throw new Error(`${source} ${JSON.stringify(redactRedisUrl(url))}: ${parsed.problem}`);
  const prefix = validateQueuePrefix(flags.prefix);
  const prefixProblem = clusterPrefixProblem(parsed.spec, prefix);
  if (prefixProblem !== undefined) throw new Error(`--prefix ${JSON.stringify(prefix)}: ${prefixProblem}`);
  const plugins = flags.plugin ?? [];
  for (const plugin of plugins) reconcileQueueName(plugin);
  const where = redactRedisUrl(url);
  // Fails fast: one connection attempt (through the Sentinels, or to the cluster seeds), then a message.
  const redis = createRedisClient(parsed.spec, REDIS_CLIENT_BEHAVIOUR.cli());
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => (lastError = error));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const cause = lastError ?? (error as Error);
    const hint = UNTRUSTED_CERTIFICATE_CODES.has(redisErrorCode(cause) ?? '')
      ? "trust the Redis server's CA with NODE_EXTRA_CA_CERTS=<ca.pem> (read when the process starts)"
      : 'pass --redis URL or set REDIS_URL';
    throw new Error(`cannot reach Redis at ${where}: ${describeRedisError(cause)}; ${hint}`);
  }
  let names: string[];
  try {
    names = plugins.length > 0 ? [...plugins] : await discoverPluginQueues(redis, prefix);
  } catch (error) {
    // A SCAN refused (ACL) or a Cluster master down: the message reaches the operator, the client does not linger.
    redis.disconnect();
    throw error;
  }
  const queues = new Map(
    names.sort().map((plugin) => [plugin, new Queue(reconcileQueueName(plugin), { connection: redis, prefix })]),
  );
  return {
    redis,
    where,
    prefix,
    queues,
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      redis.disconnect();
    },
  };
}

/** Whether --output is text or json; if not, says so to `err` as `hookgate queue <command>: ...` (exit 2). */
export function checkOutputFlag(command: string, output: string, err: NodeJS.WritableStream): boolean {
  if (output === 'text' || output === 'json') return true;
  err.write(`hookgate queue ${command}: --output ${JSON.stringify(output)}: must be text or json\n`);
  return false;
}

/** openQueues, or undefined after writing why not to `err` as `hookgate queue <command>: ...` (exit 1). */
export async function openQueuesOrReport(
  command: string,
  flags: QueueConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
  err: NodeJS.WritableStream,
): Promise<QueueConnection | undefined> {
  try {
    return await openQueues(flags, env);
  } catch (error) {
    err.write(`hookgate queue ${command}: ${(error as Error).message}\n`);
    return undefined;
  }
}

export { DEFAULT_QUEUE_PREFIX };
