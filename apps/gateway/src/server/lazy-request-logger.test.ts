/** request.log made on first use: the same lines as fastify's eager child, and no child for a silent request. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@hookgate/observability';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLogger } from './lazy-request-logger.js';

function capture(level: 'info' | 'debug') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger({ component: 'gateway', level, destination }) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

/** The parent with its child() counted. */
function counting(logger: FastifyBaseLogger) {
  let children = 0;
  const child = logger.child.bind(logger);
  const counted = Object.create(logger) as FastifyBaseLogger;
  counted.child = (bindings, options) => {
    children += 1;
    return child(bindings, options);
  };
  return { counted, children: () => children };
}

const strip = ({ time: _t, ...line }: Record<string, unknown>) => line;

describe('lazyChildLogger', () => {
  it('writes the lines an eager child writes, bindings and redaction included', () => {
    const eager = capture('info');
    const lazy = capture('info');
    const fields = { uid: 'u-1', object: { secret: 'x' } };
    eager.logger.child({ reqId: 'r-1' }).warn(fields, 'bad admission request');
    lazyChildLogger(lazy.logger, { reqId: 'r-1' }, {}).warn(fields, 'bad admission request');
    expect(lazy.lines.map(strip)).toEqual(eager.lines.map(strip));
    expect(lazy.lines[0]).toMatchObject({ reqId: 'r-1', msg: 'bad admission request' });
  });

  it('makes no child for a request that writes nothing, or only lines below the level', () => {
    const { logger, lines } = capture('info');
    const { counted, children } = counting(logger);
    const log = lazyChildLogger(counted, { reqId: 'r-2' }, {});
    expect(log.level).toBe('info');
    log.debug({ uid: 'u' }, 'dropped');
    log.trace('dropped');
    expect(children()).toBe(0);
    log.info('kept');
    log.error('kept too');
    expect(children()).toBe(1);
    expect(lines.map((l) => l['msg'])).toEqual(['kept', 'kept too']);
  });

  it('hands child() and level changes to the real child', () => {
    const { logger, lines } = capture('info');
    const log = lazyChildLogger(logger, { reqId: 'r-3' }, {});
    log.child({ breakGlass: true }).info('decision');
    log.level = 'debug';
    log.debug('now written');
    expect(lines.map(strip)).toMatchObject([
      { reqId: 'r-3', breakGlass: true, msg: 'decision' },
      { reqId: 'r-3', msg: 'now written' },
    ]);
  });
});
