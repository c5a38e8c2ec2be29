/**
 * The whole benchmark: start the hooks (SDK plugins for the gateway, plain webhooks for the
 * baseline) and the load generator, then per scenario start `hookgate serve`, measure, stop it.
 * Every process is stopped by pid at the end, on an error, and on SIGINT/SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hookName, type HookPhase, type HookProfile } from './hooks/bench-hooks.js';
import { startGateway, type RunningGateway } from './gateway/start-gateway.js';
import type { GatewayHookSet } from './gateway/gateway-config.js';
import { measurePaths, type MeasureSettings, type PathSummary, type PathUnderTest, type Progress } from './measure.js';
import { ChildSet } from './processes/child-set.js';
import { LoadgenClient } from './processes/loadgen-client.js';
import {
  hookSlots,
  startPlugins,
  startWebhooks,
  type RunningPlugin,
  type RunningWebhook,
} from './processes/start-hooks.js';
import { podReview } from './review/pod-review.js';
import { SCALE_MATCHING_PER_PHASE, scenario, type ScenarioId } from './scenarios.js';
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
  readonly plugins: readonly RunningPlugin[];
  readonly webhooks: readonly RunningWebhook[];
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
  const needsBaseline = options.scenarios.some((id) => scenario(id).kind === 'main');
  const mutating = Math.max(options.mutating, options.scenarios.includes('scale') ? SCALE_MATCHING_PER_PHASE : 0);
  const validating = Math.max(options.validating, options.scenarios.includes('scale') ? SCALE_MATCHING_PER_PHASE : 0);
  const slots = hookSlots(mutating, validating);
  progress(
    `starting ${slots.length} plugin processes${needsBaseline ? `, ${slots.length} webhook processes` : ''} and the load generator`,
  );
  const pluginProfileDir = options.cpuProfile ? await mkdtemp(path.join(workDir, 'plugin-profiles-')) : undefined;
  const pluginExecArgv = pluginProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', pluginProfileDir];
  const [plugins, webhooks, loadgen] = await Promise.all([
    startPlugins(children, slots, workDir, pluginExecArgv),
    needsBaseline ? startWebhooks(children, slots) : Promise.resolve([]),
    LoadgenClient.start(children),
  ]);
  return { children, workDir, loadgen, plugins, webhooks, pluginProfileDir, measured: [] };
}

async function runScenario(
  fixture: Fixture,
  id: ScenarioId,
  options: BenchOptions,
  progress: Progress,
): Promise<ScenarioResult> {
  const s = scenario(id);
  if (s.kind === 'main') {
    const title = `${options.mutating}+${options.validating} ${s.profile === 'noop' ? 'no-op' : 'realistic'} hooks`;
    progress(`scenario ${id}: ${title}`);
    const hooks: GatewayHookSet = {
      profile: s.profile,
      mutating: options.mutating,
      validating: options.validating,
      matchesReview: true,
      fillers: 0,
    };
    return withGateways(fixture, [hooks], options, async ([gateway]) => {
      const paths = [
        gatewayPath('gateway', 'gateway → plugins', gateway!, fixture),
        baselinePath(fixture, s.profile, options),
      ];
      return { id, title, paths: await measurePaths(fixture.loadgen, paths, options, progress) };
    });
  }
  if (s.kind === 'no-match') {
    const title = `review no hook matches (${options.mutating}+${options.validating} hooks registered for deployments)`;
    progress(`scenario ${id}: ${title}`);
    const hooks: GatewayHookSet = {
      profile: 'noop',
      mutating: options.mutating,
      validating: options.validating,
      matchesReview: false,
      fillers: 0,
    };
    return withGateways(fixture, [hooks], options, async ([gateway]) => {
      const paths = [gatewayPath('gateway', 'gateway, no hook matches', gateway!, fixture)];
      return { id, title, paths: await measurePaths(fixture.loadgen, paths, options, progress) };
    });
  }
  const matching = SCALE_MATCHING_PER_PHASE * 2;
  const title = `${options.scale[0]} vs ${options.scale[1]} registered hooks, ${SCALE_MATCHING_PER_PHASE}+${SCALE_MATCHING_PER_PHASE} no-op ones match`;
  progress(`scenario ${id}: ${title}`);
  const sets = options.scale.map((registered): GatewayHookSet => ({
    profile: 'noop',
    mutating: SCALE_MATCHING_PER_PHASE,
    validating: SCALE_MATCHING_PER_PHASE,
    matchesReview: true,
    fillers: Math.max(0, registered - matching),
  }));
  return withGateways(fixture, sets, options, async (gateways) => {
    const paths = gateways.map((gateway, i) =>
      gatewayPath(`hooks-${options.scale[i]}`, `gateway, ${options.scale[i]} hooks registered`, gateway, fixture),
    );
    return { id, title, paths: await measurePaths(fixture.loadgen, paths, options, progress) };
  });
}

/**
 * Starts one gateway per hook set (all running during the scenario), runs the measurements, stops
 * them, and with --cpu-prof summarises their workers' profiles (written when the workers exit).
 */
async function withGateways(
  fixture: Fixture,
  sets: readonly GatewayHookSet[],
  options: BenchOptions,
  body: (gateways: RunningGateway[]) => Promise<ScenarioResult>,
): Promise<ScenarioResult> {
  const profileDir = options.cpuProfile ? await mkdtemp(path.join(fixture.workDir, 'profiles-')) : undefined;
  const gateways: RunningGateway[] = [];
  try {
    for (const hooks of sets) {
      gateways.push(
        await startGateway(fixture.children, {
          workDir: fixture.workDir,
          hooks,
          plugins: fixture.plugins,
          workers: options.workers,
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

/** Hooks CPU: all plugin processes (those the scenario does not call stay idle). */
function gatewayPath(id: string, label: string, gateway: RunningGateway, fixture: Fixture): PathUnderTest {
  return {
    id,
    label,
    target: { kind: 'gateway', origin: gateway.origin },
    cpuPids: { gateway: [gateway.primaryPid, ...gateway.workerPids], hooks: fixture.plugins.map((p) => p.pid) },
  };
}

function baselinePath(fixture: Fixture, profile: HookProfile, options: BenchOptions): PathUnderTest {
  const urls = (phase: HookPhase, count: number) =>
    fixture.webhooks
      .filter((w) => w.phase === phase && w.index < count)
      .sort((a, b) => a.index - b.index)
      .map((w) => `${w.origin}/${hookName(profile, phase, w.index)}`);
  const used = fixture.webhooks.filter((w) =>
    w.phase === 'mutating' ? w.index < options.mutating : w.index < options.validating,
  );
  return {
    id: 'baseline',
    label: 'plain webhooks (baseline)',
    target: {
      kind: 'webhooks',
      mutating: urls('mutating', options.mutating),
      validating: urls('validating', options.validating),
    },
    cpuPids: { hooks: used.map((w) => w.pid) },
  };
}
