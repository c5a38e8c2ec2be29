/**
 * A child process's output as the harnesses read it: its stdout JSON log lines (pino) parsed and kept
 * in order, its stderr lines kept for error messages, and a wait for the first log line (seen or to
 * come) that matches. Shared by the gateway launcher here and the e2e tests' controller launcher.
 */
import type { ChildProcess } from 'node:child_process';

export interface LogLine {
  readonly level?: string;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

export interface ProcessLog {
  /** Every stdout log line so far, in order (a line that is not a JSON object as `{ msg: line }`). */
  readonly lines: LogLine[];
  /** Every non-empty stderr line so far. */
  readonly stderr: string[];
  /** Resolves with the first log line (seen or future) that matches; rejects after `timeoutMs`. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** The stderr and the last log lines, for an error message. */
  describe(): string;
}

/** Starts reading `child`'s stdout and stderr (both must be pipes); `what` names it in errors ("gateway"). */
export function collectProcessLog(child: ChildProcess, what: string): ProcessLog {
  const lines: LogLine[] = [];
  const stderr: string[] = [];
  const waiters = new Set<{ predicate: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>();
  readLines(child, 'stdout', (text) => {
    const line = parseLogLine(text);
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.predicate(line)) {
        waiters.delete(w);
        w.resolve(line);
      }
    }
  });
  readLines(child, 'stderr', (text) => stderr.push(text));
  const describe = () => `stderr:\n${stderr.join('\n')}\nlast logs:\n${tail(lines)}`;

  const waitForLog = (predicate: (l: LogLine) => boolean, timeoutMs = 15_000): Promise<LogLine> => {
    const seen = lines.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`${what} log line not seen within ${timeoutMs} ms; ${describe()}`));
      }, timeoutMs);
      const waiter = {
        predicate,
        resolve: (l: LogLine) => {
          clearTimeout(timer);
          resolve(l);
        },
      };
      waiters.add(waiter);
    });
  };
  return { lines, stderr, waitForLog, describe };
}

function readLines(child: ChildProcess, stream: 'stdout' | 'stderr', onLine: (line: string) => void): void {
  let buffered = '';
  child[stream]?.setEncoding('utf8');
  child[stream]?.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') onLine(line);
    }
  });
}

function parseLogLine(text: string): LogLine {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as LogLine) : { msg: text };
  } catch {
    return { msg: text };
  }
}

function tail(lines: readonly LogLine[]): string {
  return lines
    .slice(-15)
    .map((l) => JSON.stringify(l))
    .join('\n');
}
