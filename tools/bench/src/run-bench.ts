/**
 * The whole benchmark: start the hooks (SDK plugins for the gateway, plain webhooks for the
 * baseline) and the load generator, then per scenario start `hookgate serve`, measure, stop it.
 * Every process is stopped by pid at the end, on an error, and on SIGINT/SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hookName, slotName, type HookPhase, type HookProfile } from './hooks/bench-hooks.js';
import { startGateway, type RunningGateway } from './gateway/start-gateway.js';
import type { GatewayHookSet } from './gateway/gateway-config.js';
import { measurePaths, type MeasureSettings, type PathSummary, type PathUnderTest, type Progress } from './measure.js';
import { ChildSet } from './processes/child-set.js';
import { LoadgenClient } from './processes/loadgen-client.js';
import {
  hookSlots,
  pluginPerSlot,
  startPlugins,
  startWebhooks,
  type RunningPlugin,
  type RunningWebhook,
  type TlsFiles,
} from './processes/start-hooks.js';
import { benchTls, type BenchTls } from './processes/bench-tls.js';
import { podReview } from './review/pod-review.js';
import { needs, ONE_PLUGIN, SCALE_MATCHING_PER_PHASE, scenario, WORKER_COUNTS, type ScenarioId } from './scenarios.js';
import {
  profileClockUs,
  summarizeCpuProfiles,
  type ProfileSummary,
  type ProfileWindow,
} from './profile/summarize-profile.js';
import { machineInfo, snapshotMachine, type MachineInfo } from './machine.js';

export interface BenchOptions extends MeasureSettings {
  readonly scenarios: readonly ScenarioId[];
  readonly mutating: number;
  readonly validating: number;
  readonly workers: number;
  /** Registered hooks in the scale scenario: [small, large]. */
  readonly scale: readonly [number, number];
  /** Profile the gateway (node --cpu-prof) and summarise the workers' profiles. */
  readonly cpuProfile: boolean;
  /** With cpuProfile: keep the raw .cpuprofile files under this directory (default: deleted with the run). */
  readonly cpuProfileDir?: string;
  readonly progress?: Progress;
}

export interface ScenarioResult {
  readonly id: ScenarioId;
  readonly title: string;
  readonly paths: readonly PathSummary[];
  readonly profiles?: readonly ProfileSummary[];
}

export type { MachineInfo };

export interface BenchReport {
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly reviewBytes: number;
  readonly options: Omit<BenchOptions, 'progress'>;
  readonly scenarios: readonly ScenarioResult[];
  /** With --cpu-prof: the plugin processes over the whole run (all scenarios). */
  readonly pluginProfiles?: readonly ProfileSummary[];
}

interface Fixture {
  readonly children: ChildSet;
  readonly workDir: string;
  readonly loadgen: LoadgenClient;
  /** Every plugin process (per slot, and the one serving all hooks). */
  readonly plugins: readonly RunningPlugin[];
  readonly webhooks: readonly RunningWebhook[];
  readonly httpsWebhooks: readonly RunningWebhook[];
  /** The serving certificate of the https webhooks and of the gateway in the bridge scenario. */
  readonly tls: BenchTls | undefined;
  readonly pluginProfileDir: string | undefined;
  /** When measurements ran (profile clock), to leave startup out of the profiles. */
  readonly measured: ProfileWindow[];
}

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const progress = options.progress ?? (() => undefined);
  const startedAt = new Date().toISOString();
  const before = snapshotMachine();
  const children = new ChildSet();
  // Short: unix socket paths are limited to 107 bytes.
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'hgb-'));
  const stopOnSignal = (signal: NodeJS.Signals) => {
    progress(`${signal}: stopping every process the benchmark started`);
    void children
      .stopAll(5000)
      .then(() => rm(workDir, { recursive: true, force: true }))
      .finally(() => process.exit(130));
  };
  const killOnExit = () => children.killAllNow();
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  process.once('exit', killOnExit);
  try {
    const fixture = await startFixture(children, workDir, options, progress);
    const scenarios: ScenarioResult[] = [];
    for (const id of options.scenarios) scenarios.push(await runScenario(fixture, id, options, progress));
    let pluginProfiles: ProfileSummary[] | undefined;
    if (fixture.pluginProfileDir !== undefined) {
      // Profiles are written when the plugins exit; only the measurement windows count.
      await children.stopAll();
      pluginProfiles = await summarizeCpuProfiles(
        fixture.pluginProfileDir,
        fixture.plugins.map((p) => p.pid),
        fixture.measured,
      );
    }
    return {
      startedAt,
      machine: machineInfo(before, snapshotMachine()),
      reviewBytes: Buffer.byteLength(JSON.stringify(podReview())),
      options: withoutProgress(options),
      scenarios,
      ...(pluginProfiles ? { pluginProfiles } : {}),
    };
  } finally {
    await children.stopAll();
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    process.off('exit', killOnExit);
    await rm(workDir, { recursive: true, force: true });
  }
}

function withoutProgress(options: BenchOptions): Omit<BenchOptions, 'progress'> {
  const { progress: _progress, ...rest } = options;
  return rest;
}

async function startFixture(
  children: ChildSet,
  workDir: string,
  options: BenchOptions,
  progress: Progress,
): Promise<Fixture> {
  const need = needs(options.scenarios);
  const mutating = Math.max(options.mutating, options.scenarios.includes('scale') ? SCALE_MATCHING_PER_PHASE : 0);
  const validating = Math.max(options.validating, options.scenarios.includes('scale') ? SCALE_MATCHING_PER_PHASE : 0);
  const slots = hookSlots(mutating, validating);
  const mainSlots = hookSlots(options.mutating, options.validating);
  const pluginSpecs = [
    ...(need.pluginPerSlot ? pluginPerSlot(slots) : []),
    ...(need.onePlugin ? [{ name: ONE_PLUGIN, slots: mainSlots }] : []),
  ];
  progress(
    `starting ${pluginSpecs.length} plugin processes, ${need.plainWebhooks ? slots.length : 0} http and ` +
      `${need.httpsWebhooks ? mainSlots.length : 0} https webhook processes, and the load generator`,
  );
  const pluginProfileDir = options.cpuProfile
    ? await mkdtemp(path.join(options.cpuProfileDir ?? workDir, 'plugin-profiles-'))
    : undefined;
  const pluginExecArgv = pluginProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', pluginProfileDir];
  const tls = need.httpsWebhooks ? await benchTls(workDir) : undefined;
  const [plugins, webhooks, httpsWebhooks, loadgen] = await Promise.all([
    startPlugins(children, pluginSpecs, workDir, pluginExecArgv),
    need.plainWebhooks ? startWebhooks(children, slots) : Promise.resolve([]),
    tls === undefined ? Promise.resolve([]) : startWebhooks(children, mainSlots, tls.files),
    LoadgenClient.start(children),
  ]);
  return { children, workDir, loadgen, plugins, webhooks, httpsWebhooks, tls, pluginProfileDir, measured: [] };
}

async function runScenario(
  fixture: Fixture,
  id: ScenarioId,
  options: BenchOptions,
  progress: Progress,
): Promise<ScenarioResult> {
  const s = scenario(id);
  const hooks = `${options.mutating}+${options.validating}`;
  const mainSet = (profile: HookProfile): GatewayHookSet => ({
    profile,
    mutating: options.mutating,
    validating: options.validating,
    matchesReview: true,
    fillers: 0,
  });
  const perSlotPlugins = fixture.plugins.filter((p) => p.name !== ONE_PLUGIN);
  const measure = async (
    title: string,
    gateways: GatewayRun[],
    paths: (running: RunningGateway[]) => PathUnderTest[],
  ) => {
    progress(`scenario ${id}: ${title}`);
    return withGateways(fixture, id, gateways, options, async (running) => ({
      id,
      title,
      paths: await measurePaths(fixture.loadgen, paths(running), options, progress),
    }));
  };
  switch (s.kind) {
    case 'main':
      return measure(
        `${hooks} ${s.profile === 'noop' ? 'no-op' : 'realistic'} hooks`,
        [{ hooks: mainSet(s.profile) }],
        ([gateway]) => [
          gatewayPath('gateway', 'gateway → plugins', gateway!, perSlotPlugins),
          baselinePath(fixture.webhooks, s.profile, options, 'plain webhooks (baseline)'),
        ],
      );
    case 'one-process': {
      const plugin = fixture.plugins.filter((p) => p.name === ONE_PLUGIN);
      return measure(
        `${hooks} no-op hooks served by one plugin process`,
        [{ hooks: { ...mainSet('noop'), backend: { kind: 'one-plugin', plugin: ONE_PLUGIN } } }],
        ([gateway]) => [
          gatewayPath('gateway', 'gateway → one plugin', gateway!, plugin),
          baselinePath(fixture.webhooks, 'noop', options, 'plain webhooks (baseline)'),
        ],
      );
    }
    case 'bridge': {
      const tls = fixture.tls!;
      const origins = Object.fromEntries(fixture.httpsWebhooks.map((w) => [slotName(w), w.origin]));
      const backend = { kind: 'bridge' as const, origins, caBundle: Buffer.from(tls.caPem).toString('base64') };
      return measure(
        `${hooks} existing no-op https webhooks behind the gateway (https)`,
        [{ hooks: { ...mainSet('noop'), backend }, tls: tls.files }],
        ([gateway]) => [
          {
            ...gatewayPath('gateway', 'gateway → bridge → https hooks', gateway!, []),
            target: { kind: 'gateway', origin: gateway!.origin, ca: tls.caPem },
            cpuPids: { gateway: gatewayPids(gateway!), hooks: fixture.httpsWebhooks.map((w) => w.pid) },
          },
          baselinePath(fixture.httpsWebhooks, 'noop', options, 'https webhooks, direct', tls.caPem),
        ],
      );
    }
    case 'no-match': {
      const noop = fixture.webhooks.find((w) => w.phase === 'validating' && w.index === 0) ?? fixture.webhooks[0]!;
      return measure(
        `review no hook matches (${hooks} hooks registered for deployments)`,
        [{ hooks: { ...mainSet('noop'), matchesReview: false } }],
        ([gateway]) => [
          gatewayPath('gateway', 'gateway, no hook matches', gateway!, perSlotPlugins),
          {
            id: 'one-call',
            label: 'one direct call to a no-op webhook',
            target: {
              kind: 'webhooks',
              mutating: [],
              validating: [`${noop.origin}/${hookName('noop', noop.phase, noop.index)}`],
            },
            cpuPids: { hooks: [noop.pid] },
          },
        ],
      );
    }
    case 'scale': {
      const matching = SCALE_MATCHING_PER_PHASE * 2;
      const sets = options.scale.map((registered): GatewayRun => ({
        hooks: {
          profile: 'noop',
          mutating: SCALE_MATCHING_PER_PHASE,
          validating: SCALE_MATCHING_PER_PHASE,
          matchesReview: true,
          fillers: Math.max(0, registered - matching),
        },
      }));
      return measure(
        `${options.scale[0]} vs ${options.scale[1]} registered hooks, ${SCALE_MATCHING_PER_PHASE}+${SCALE_MATCHING_PER_PHASE} no-op ones match`,
        sets,
        (gateways) =>
          gateways.map((gateway, i) =>
            gatewayPath(
              `hooks-${options.scale[i]}`,
              `gateway, ${options.scale[i]} hooks registered`,
              gateway,
              perSlotPlugins,
            ),
          ),
      );
    }
    case 'workers':
      return measure(
        `${hooks} no-op hooks, gateway with ${WORKER_COUNTS.join(', ')} workers`,
        WORKER_COUNTS.map((workers) => ({ hooks: mainSet('noop'), workers })),
        (gateways) =>
          gateways.map((gateway, i) =>
            gatewayPath(`workers-${WORKER_COUNTS[i]}`, `gateway, ${WORKER_COUNTS[i]} workers`, gateway, perSlotPlugins),
          ),
      );
  }
}

/** One gateway of a scenario: its hooks, and what differs from the options. */
interface GatewayRun {
  readonly hooks: GatewayHookSet;
  readonly workers?: number;
  readonly tls?: TlsFiles;
}

/**
 * Starts one gateway per hook set (all running during the scenario), runs the measurements, stops
 * them, and with --cpu-prof summarises their workers' profiles (written when the workers exit).
 */
async function withGateways(
  fixture: Fixture,
  id: ScenarioId,
  sets: readonly GatewayRun[],
  options: BenchOptions,
  body: (gateways: RunningGateway[]) => Promise<ScenarioResult>,
): Promise<ScenarioResult> {
  const profileDir = options.cpuProfile
    ? await mkdtemp(path.join(options.cpuProfileDir ?? fixture.workDir, `gateway-profiles-${id}-`))
    : undefined;
  const gateways: RunningGateway[] = [];
  try {
    for (const set of sets) {
      gateways.push(
        await startGateway(fixture.children, {
          workDir: fixture.workDir,
          hooks: set.hooks,
          plugins: fixture.plugins,
          workers: set.workers ?? options.workers,
          ...(set.tls === undefined ? {} : { tls: set.tls }),
          ...(profileDir ? { cpuProfileDir: profileDir } : {}),
        }),
      );
    }
    const window = { fromUs: profileClockUs(), toUs: 0 };
    const result = await body(gateways);
    const measured = { ...window, toUs: profileClockUs() };
    fixture.measured.push(measured);
    const workerPids = gateways.flatMap((g) => g.workerPids);
    await stopGateways(fixture, gateways);
    if (profileDir === undefined) return result;
    return { ...result, profiles: await summarizeCpuProfiles(profileDir, workerPids, [measured]) };
  } finally {
    await stopGateways(fixture, gateways);
  }
}

/** The load generator lets go of its connections first, so that the gateway's drain has nothing to wait for. */
async function stopGateways(fixture: Fixture, gateways: RunningGateway[]): Promise<void> {
  for (const g of gateways) fixture.loadgen.drop({ kind: 'gateway', origin: g.origin });
  await Promise.all(gateways.map((g) => g.stop()));
  gateways.length = 0;
}

const gatewayPids = (gateway: RunningGateway): number[] => [gateway.primaryPid, ...gateway.workerPids];

/** Hooks CPU: the plugin processes the scenario's hooks run in. */
function gatewayPath(
  id: string,
  label: string,
  gateway: RunningGateway,
  plugins: readonly RunningPlugin[],
): PathUnderTest {
  return {
    id,
    label,
    target: { kind: 'gateway', origin: gateway.origin },
    cpuPids: { gateway: gatewayPids(gateway), hooks: plugins.map((p) => p.pid) },
  };
}

function baselinePath(
  webhooks: readonly RunningWebhook[],
  profile: HookProfile,
  options: BenchOptions,
  label: string,
  ca?: string,
): PathUnderTest {
  const urls = (phase: HookPhase, count: number) =>
    webhooks
      .filter((w) => w.phase === phase && w.index < count)
      .sort((a, b) => a.index - b.index)
      .map((w) => `${w.origin}/${hookName(profile, phase, w.index)}`);
  const used = webhooks.filter((w) =>
    w.phase === 'mutating' ? w.index < options.mutating : w.index < options.validating,
  );
  return {
    id: 'baseline',
    label,
    target: {
      kind: 'webhooks',
      mutating: urls('mutating', options.mutating),
      validating: urls('validating', options.validating),
      ...(ca === undefined ? {} : { ca }),
    },
    cpuPids: { hooks: used.map((w) => w.pid) },
  };
}
