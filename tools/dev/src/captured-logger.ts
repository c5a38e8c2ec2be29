/**
 * A real logger (createLogger, level debug) whose JSON lines are parsed into an array, for tests that
 * check what a component logged.
 */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@hookgate/observability';

export interface CapturedLogger {
  readonly logger: Logger;
  /** Every line logged so far, parsed, in order. */
  readonly logs: Record<string, unknown>[];
}

export function capturedLogger(component: string): CapturedLogger {
  const logs: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ component, level: 'debug', destination }), logs };
}
