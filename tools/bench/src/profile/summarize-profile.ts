/**
 * Where a gateway worker spends its CPU, from V8 .cpuprofile files (node --cpu-prof): self time by
 * area (a package, a gateway folder, a Hookgate lib, node internals, GC), the hottest functions,
 * and the inclusive time of Hookgate's own functions. Idle time is left out of the shares.
 *
 *   node --import tsx src/profile/summarize-profile.ts DIR [PID...]     (the workers' profiles)
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Monotonic clock, µs: the same clock as process.hrtime on Linux. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Only samples taken in this window count (process.hrtime µs): leaves out startup and shutdown. */
export interface ProfileWindow {
  readonly fromUs: number;
  readonly toUs: number;
}

/** Now on the profiles' clock. */
export function profileClockUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export interface Share {
  readonly name: string;
  readonly ms: number;
  /** Of busy (non-idle) time, 0..1. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly files: readonly string[];
  /** Samples outside these windows were left out (startup, shutdown). */
  readonly windows: readonly ProfileWindow[];
  readonly busyMs: number;
  readonly idleMs: number;
  readonly areas: readonly Share[];
  readonly selfFunctions: readonly Share[];
  /** Hookgate's own functions (apps/, libs/), time including callees. */
  readonly inclusive: readonly Share[];
}

const TOP = Number(process.env.PROFILE_TOP ?? 15);

/** One summary over all the profiles of the given pids (all profiles when `pids` is empty). */
export async function summarizeCpuProfiles(
  dir: string,
  pids: readonly number[] = [],
  windows: readonly ProfileWindow[] = [],
): Promise<ProfileSummary[]> {
  const files = (await readdir(dir)).filter(
    (f) => f.endsWith('.cpuprofile') && (pids.length === 0 || pids.some((pid) => f.includes(`.${pid}.`))),
  );
  if (files.length === 0) return [];
  const profiles = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as CpuProfile),
  );
  return [summarize(files, profiles, windows)];
}

function summarize(
  files: readonly string[],
  profiles: readonly CpuProfile[],
  windows: readonly ProfileWindow[],
): ProfileSummary {
  const counted = (us: number) => windows.length === 0 || windows.some((w) => us >= w.fromUs && us <= w.toUs);
  const areas = new Map<string, number>();
  const selfFunctions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      at += profile.timeDeltas[i] ?? 0;
      const node = byId.get(profile.samples[i]!);
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (node === undefined || ms <= 0 || !counted(at)) continue;
      if (node.callFrame.functionName === '(idle)') {
        idle += ms;
        continue;
      }
      busy += ms;
      add(areas, areaOf(node.callFrame), ms);
      add(selfFunctions, functionLabel(node.callFrame), ms);
      // Inclusive: each Hookgate function on the stack once per sample.
      const seen = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const frame = byId.get(id)!.callFrame;
        if (!isHookgateCode(frame.url)) continue;
        const label = functionLabel(frame);
        if (!seen.has(label)) {
          seen.add(label);
          add(inclusive, label, ms);
        }
      }
    }
  }
  const top = (m: Map<string, number>): Share[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, ms]) => ({ name, ms, share: busy > 0 ? ms / busy : 0 }));
  return {
    files,
    windows,
    busyMs: busy,
    idleMs: idle,
    areas: top(areas),
    selfFunctions: top(selfFunctions),
    inclusive: top(inclusive),
  };
}

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

function isHookgateCode(url: string): boolean {
  return !url.includes('/node_modules/') && /\/(apps|libs)\//.test(url);
}

function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return 'V8/native (program)';
    return `native builtins (${functionName || 'anonymous'})`;
  }
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `npm ${pkg[1]}`;
  const hookgate = /\/(apps\/[^/]+|libs\/[^/]+)\/src\/(?:([^/]+)\/)?/.exec(url);
  if (hookgate) return hookgate[2] ? `${hookgate[1]}/${hookgate[2]}` : hookgate[1]!;
  if (url.startsWith('node:')) {
    const mod = url.slice('node:'.length).replace(/^internal\//, '');
    return `node:${mod.split('/')[0]}`;
  }
  return url;
}

function functionLabel(frame: CallFrame): string {
  const file = frame.url === '' ? '' : ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  return `${frame.functionName || '(anonymous)'}${file}`;
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('/node_modules/');
  if (i >= 0) return url.slice(i + '/node_modules/'.length);
  const m = /\/((?:apps|libs)\/.*)$/.exec(url);
  return m ? m[1]! : url.replace(/^node:/, '');
}

export function formatProfileSummary(what: string, summary: ProfileSummary): string {
  const pct = (s: Share) => `${(s.share * 100).toFixed(1).padStart(5)}%  ${s.name}`;
  return [
    `CPU profile of ${what} (${summary.files.length} files, threads included${summary.windows.length > 0 ? ', measurements only: startup left out' : ''}): ${(summary.busyMs / 1000).toFixed(1)} s busy, ${(summary.idleMs / 1000).toFixed(1)} s idle`,
    '  self time by area:',
    ...summary.areas.map((s) => `    ${pct(s)}`),
    '  hottest functions (self):',
    ...summary.selfFunctions.map((s) => `    ${pct(s)}`),
    '  Hookgate functions (inclusive):',
    ...summary.inclusive.map((s) => `    ${pct(s)}`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, ...pids] = process.argv.slice(2);
  if (dir === undefined) {
    process.stderr.write('usage: summarize-profile.ts DIR [PID...]\n');
    process.exit(2);
  }
  for (const summary of await summarizeCpuProfiles(dir, pids.map(Number)))
    process.stdout.write(`${formatProfileSummary(dir, summary)}\n`);
}
