/**
 * `npm run bench:startup -- [--runs 5] [--workers 2]`: how long `hookgate serve` takes to become
 * ready, run from the sources through tsx (the development condition, as `npx hookgate` in the
 * repository) and from the build (plain node on dist/, as the images run it), alternating, medians
 * of --runs. Each run is a fresh state directory (the CA is created), TLS on, no hooks. Phases from
 * the gateway's own log lines: process start → serving certificate issued (CA ready) → every worker
 * listening ("hookgate serving") → /readyz 200. Needs `npm run build` first.
 */
import { parseArgs } from 'node:util';
import { startGateway, type LogLine } from '@hookgate/devtools';
import { median } from '../stats.js';

const MODES = {
  source: { NODE_OPTIONS: '--conditions=development' },
  build: { NODE_OPTIONS: undefined, npm_config_node_options: undefined },
} as const;
type Mode = keyof typeof MODES;

interface Sample {
  /** Process start → the serving certificate is issued (the CA is ready). */
  readonly caReadyMs: number;
  /** CA ready → every worker listening. */
  readonly workersMs: number;
  /** Process start → /readyz answered 200. */
  readonly readyMs: number;
}

const CONFIG = (workers: number) =>
  [
    'apiVersion: hookgate.dev/v1alpha1',
    'kind: GatewayConfiguration',
    `workers: ${workers}`,
    'namespaces: [{ name: default, labels: {} }]',
  ].join('\n');

const timeOf = (logs: readonly LogLine[], predicate: (msg: string) => boolean, what: string): number => {
  const line = logs.find((l) => typeof l.msg === 'string' && predicate(l.msg));
  if (line === undefined) throw new Error(`no "${what}" log line`);
  return Date.parse(String(line['time']));
};

async function measure(mode: Mode, workers: number): Promise<Sample> {
  const started = Date.now();
  const gateway = await startGateway({
    config: CONFIG(workers),
    insecureHttp: false,
    env: { ...MODES[mode], HOOKGATE_LOG_LEVEL: 'info' },
    readyTimeoutMs: 60_000,
  });
  const ready = Date.now();
  try {
    const caReady = timeOf(
      gateway.logs,
      (msg) => msg.startsWith('issued the serving certificate'),
      'issued the serving certificate',
    );
    const serving = timeOf(gateway.logs, (msg) => msg === 'hookgate serving', 'hookgate serving');
    return { caReadyMs: caReady - started, workersMs: serving - caReady, readyMs: ready - started };
  } finally {
    await gateway.stop();
  }
}

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, workers: { type: 'string', default: '2' } },
});
const runs = Number(values.runs);
const workers = Number(values.workers);
const samples: Record<Mode, Sample[]> = { source: [], build: [] };
for (let run = 1; run <= runs; run += 1) {
  for (const mode of Object.keys(MODES) as Mode[]) {
    const sample = await measure(mode, workers);
    samples[mode].push(sample);
    process.stderr.write(`run ${run}/${runs} ${mode}: ready in ${sample.readyMs} ms\n`);
  }
}
const row = (cells: readonly (string | number)[]) => cells.map((c, i) => String(c).padStart(i === 0 ? 8 : 22)).join('');
console.log(`hookgate serve, ${workers} workers, TLS, no hooks: medians of ${runs} runs (ms)`);
console.log(row(['', 'start → CA ready', 'CA ready → listening', 'start → /readyz 200']));
for (const mode of Object.keys(MODES) as Mode[]) {
  const of = (key: keyof Sample) => Math.round(median(samples[mode].map((s) => s[key])));
  console.log(row([mode, of('caReadyMs'), of('workersMs'), of('readyMs')]));
}
