/**
 * The floor of a side effect's Redis hand-over, without the gateway: the CPU one process spends per
 * Redis round trip when the round trips come one at a time at a steady rate (a gateway at low load,
 * where each review is alone), against the same process only waking at that rate. Three kinds:
 * PING (the smallest round trip ioredis makes), the gateway's add (SideEffectProducer.addPrepared:
 * BullMQ's add script and the HGET behind it, a 519-byte job), and the add with 16 in flight (the
 * group commit's best case). Answers "what is the least a side effect can add at this rate?"
 *
 *   node --conditions=development --import tsx tools/bench/src/micro/redis-round-trip-micro.ts [--rate 500] [--count 3000] [--runs 3]
 *
 * CPU is process.cpuUsage() (all threads, user + system), so the kernel's share of a loopback
 * write (it delivers the bytes into Redis's socket inline) counts, as it does for the gateway.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ensureRedis } from '@hookgate/devtools';
import { REDIS_CLIENT_BEHAVIOUR, SideEffectProducer, createRedisClient, prepareJob } from '@hookgate/queue';
import { sampleJob } from '@hookgate/queue/testing';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    count: { type: 'string', default: '3000' },
    runs: { type: 'string', default: '3' },
  },
});
const rate = Number(args.rate);
const count = Number(args.count);
const runs = Number(args.runs);

const redis = await ensureRedis();
const prefix = `{bench-rt-${randomUUID()}}`;
const client = createRedisClient(redis.url, REDIS_CLIENT_BEHAVIOUR.worker());
const producer = new SideEffectProducer({ redisUrl: redis.url, prefix, addTimeoutMs: 2000 });
await client.ping();
let n = 0;
const nextJob = () => prepareJob(sampleJob({}, { uid: `${prefix}-${++n}` }));

/** CPU µs per operation: `op` started `count` times at `rate`/s, each awaited before the next is due. */
async function paced(op: () => Promise<unknown>): Promise<number> {
  const interval = 1000 / rate;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await op();
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / count;
}

/** CPU µs per operation with `inFlight` outstanding at all times (closed loop). */
async function closedLoop(op: () => Promise<unknown>, inFlight: number): Promise<number> {
  const cpu = process.cpuUsage();
  let left = count;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (left-- > 0) await op();
    }),
  );
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / count;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, number[]> = { idle: [], ping: [], add: [], add16: [] };
for (let run = 0; run < runs; run++) {
  rows.idle!.push(await paced(async () => undefined));
  rows.ping!.push(await paced(() => client.ping()));
  rows.add!.push(await paced(() => producer.addPrepared(nextJob())));
  rows.add16!.push(await closedLoop(() => producer.addPrepared(nextJob()), 16));
}
const idle = median(rows.idle!);
console.log(
  `redis-round-trip-micro: ${count} operations x ${runs} runs at ${rate}/s, node ${process.version}, Redis ${redis.url}`,
);
console.log(`waking at ${rate}/s, doing nothing:           ${idle.toFixed(1)} µs CPU per wake-up`);
for (const [name, label] of [
  ['ping', 'PING, paced (minus the wake-up)'],
  ['add', "the gateway's add, paced (minus the wake-up)"],
] as const) {
  const values = rows[name]!.map((v) => v - idle);
  console.log(
    `${label.padEnd(44)} ${median(values).toFixed(1)} µs (runs ${values.map((v) => v.toFixed(1)).join(', ')})`,
  );
}
console.log(
  `${"the gateway's add, 16 in flight".padEnd(44)} ${median(rows.add16!).toFixed(1)} µs (runs ${rows.add16!.map((v) => v.toFixed(1)).join(', ')})`,
);

// Our keys only: the jobs under this prefix.
const keys = await client.keys(`${prefix}:*`);
for (let i = 0; i < keys.length; i += 500) await client.del(...keys.slice(i, i + 500));
await producer.close();
client.disconnect();
await redis.stop();
