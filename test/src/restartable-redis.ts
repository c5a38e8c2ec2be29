/**
 * A redis-server of the test's own (no persistence, like this machine's), which the test may stop
 * and start again on the same port: a Redis outage, or a Redis restarted empty with a new run_id.
 * Stopped by pid (devtools' startRedisServer).
 */
import { freePort, startRedisServer, type RedisHandle } from '@hookgate/devtools';

export interface RestartableRedis {
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
}

export async function startRestartableRedis(): Promise<RestartableRedis> {
  const port = await freePort();
  let handle: RedisHandle | undefined = await startRedisServer(5000, port);
  const stop = async () => {
    await handle?.stop();
    handle = undefined;
  };
  const start = async () => {
    handle ??= await startRedisServer(5000, port);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
  };
}
