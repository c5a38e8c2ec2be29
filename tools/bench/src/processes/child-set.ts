/**
 * Every process the benchmark starts, tracked by pid so that all of them are stopped, whatever
 * happens: SIGTERM, then SIGKILL after a grace period. Processes of our own (plugins, webhooks,
 * the load generator) also exit when their stdin closes, so they do not outlive a killed harness.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface TrackedChild {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** The last few KiB of stderr and stdout, for error messages. */
  output(): string;
  /** Resolves with the first stdout line that parses as JSON and satisfies `accept`. */
  readyLine<T>(accept: (line: unknown) => line is T, timeoutMs: number): Promise<T>;
}

const OUTPUT_KEEP = 4096;

export class ChildSet {
  readonly #children = new Map<number, TrackedChild>();
  /** Processes started by our children (gateway workers), killed if their parent is not enough. */
  readonly #grandchildren = new Set<number>();

  start(name: string, command: string, args: readonly string[], options: SpawnOptions = {}): TrackedChild {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
    if (child.pid === undefined) throw new Error(`could not start ${name} (${command} ${args.join(' ')})`);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
    };
    child.stderr?.on('data', keep);
    child.stdout?.on('data', keep);
    child.stdin?.on('error', () => undefined); // a child that exits early closes its stdin: not our error
    const pid = child.pid;
    const tracked: TrackedChild = {
      name,
      child,
      pid,
      output: () => output,
      readyLine: (accept, timeoutMs) => readyLine(name, child, accept, timeoutMs, () => output),
    };
    this.#children.set(pid, tracked);
    child.once('exit', () => this.#children.delete(pid));
    return tracked;
  }

  adoptGrandchildren(pids: readonly number[]): void {
    for (const pid of pids) this.#grandchildren.add(pid);
  }

  /** SIGKILL for adopted processes still running after their parent stopped. */
  killStragglers(pids: readonly number[]): void {
    for (const pid of pids) {
      if (isAlive(pid)) signal(pid, 'SIGKILL');
      this.#grandchildren.delete(pid);
    }
  }

  async stop(tracked: TrackedChild, graceMs = 10_000): Promise<void> {
    await stopProcess(tracked.child, tracked.pid, graceMs);
    this.#children.delete(tracked.pid);
  }

  /** Stops everything still running, in parallel; safe to call more than once. */
  async stopAll(graceMs = 10_000): Promise<void> {
    await Promise.all([...this.#children.values()].map((tracked) => this.stop(tracked, graceMs)));
    for (const pid of this.#grandchildren) {
      if (isAlive(pid)) signal(pid, 'SIGKILL');
    }
    this.#grandchildren.clear();
  }

  /** Synchronous last resort (process 'exit' handler): SIGKILL by pid. */
  killAllNow(): void {
    for (const pid of [...this.#children.keys(), ...this.#grandchildren]) signal(pid, 'SIGKILL');
  }
}

async function stopProcess(child: ChildProcess, pid: number, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signal(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), graceMs);
  });
  if (await Promise.race([exited.then(() => false), timedOut])) {
    signal(pid, 'SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readyLine<T>(
  name: string,
  child: ChildProcess,
  accept: (line: unknown) => line is T,
  timeoutMs: number,
  output: () => string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const parsed = parseJson(line);
        if (accept(parsed)) {
          cleanup();
          resolve(parsed);
          return;
        }
      }
    };
    const onExit = (code: number | null, sig: string | null) => {
      cleanup();
      reject(new Error(`${name} exited (${code ?? sig}) before it was ready:\n${output()}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${name} was not ready within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
