import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REDACTION_CENSOR, createLogger, isLogLevel } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  const secret = { kind: 'Secret', data: { password: 'aHVudGVyMg==' } };
  const cases = [
    { name: 'top-level object', fields: { object: secret }, path: ['object'] },
    { name: 'top-level oldObject', fields: { oldObject: secret }, path: ['oldObject'] },
    { name: 'patch one level down', fields: { hook: { patch: [{ op: 'add' }] } }, path: ['hook', 'patch'] },
    {
      name: 'request.object two levels down',
      fields: { review: { request: { object: secret } } },
      path: ['review', 'request', 'object'],
    },
    {
      name: 'authorization header',
      fields: { headers: { authorization: 'Bearer abc' } },
      path: ['headers', 'authorization'],
    },
  ];
  for (const c of cases) {
    it(`redacts ${c.name}`, () => {
      const { lines, destination } = capture();
      createLogger({ component: 'test', destination }).info(c.fields, 'hello');
      let value: unknown = lines[0];
      for (const key of c.path) value = (value as Record<string, unknown>)[key];
      expect(value).toBe(REDACTION_CENSOR);
      expect(JSON.stringify(lines)).not.toContain('aHVudGVyMg==');
    });
  }

  it('writes base fields, the level label and keeps ordinary fields', () => {
    const { lines, destination } = capture();
    createLogger({ component: 'gateway', base: { worker: 2 }, destination }).warn(
      { hook: 'a.example.com', uid: 'u1' },
      'slow',
    );
    expect(lines[0]).toMatchObject({
      component: 'gateway',
      worker: 2,
      level: 'warn',
      hook: 'a.example.com',
      uid: 'u1',
      msg: 'slow',
    });
    expect(typeof lines[0]!.time).toBe('string');
  });

  it('caps a uid far longer than a UUID', () => {
    const { lines, destination } = capture();
    const log = createLogger({ component: 'gateway', destination });
    log.warn({ uid: 'x'.repeat(1_000_000) }, 'bad admission request');
    expect(lines[0]!.uid).toBe(`${'x'.repeat(128)}…(1000000 characters)`);
    expect(JSON.stringify(lines[0]).length).toBeLessThan(1000);
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    const log = createLogger({ component: 'test', level: 'warn', destination });
    log.info('dropped');
    log.error('kept');
    expect(lines.map((l) => l.msg)).toEqual(['kept']);
  });

  it('recognises log levels', () => {
    expect([isLogLevel('debug'), isLogLevel('silent'), isLogLevel('verbose'), isLogLevel(3)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('ComponentLog', () => {
  it('is satisfied by a pino logger', () => {
    const log: import('./logger.js').ComponentLog = createLogger({ component: 'test', level: 'silent' });
    expect(typeof log.warn).toBe('function');
  });
});
