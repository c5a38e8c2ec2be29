/** What the report says about the machine, including how contended it was while the benchmark ran. */
import os from 'node:os';

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
  readonly loadAverageBefore: number;
  readonly loadAverageAfter: number;
  /** Share of a core a spinning thread got before and after the run: about 1 on an idle machine. */
  readonly cpuShareBefore: number;
  readonly cpuShareAfter: number;
}

export interface MachineSnapshot {
  readonly loadAverage: number;
  readonly cpuShare: number;
}

export function snapshotMachine(): MachineSnapshot {
  return { loadAverage: os.loadavg()[0] ?? Number.NaN, cpuShare: spinningCpuShare(300) };
}

export function machineInfo(before: MachineSnapshot, after: MachineSnapshot): MachineInfo {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageBefore: before.loadAverage,
    loadAverageAfter: after.loadAverage,
    cpuShareBefore: before.cpuShare,
    cpuShareAfter: after.cpuShare,
  };
}

/** Spins for `ms` and returns CPU time received ÷ wall time: other busy processes make it drop. */
function spinningCpuShare(ms: number): number {
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < ms) {
    // spin
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / (performance.now() - started);
}
