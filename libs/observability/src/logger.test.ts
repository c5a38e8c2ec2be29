import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REDACTION_CENSOR, componentLogger, createLogger, isLogLevel } from './logger.js';

/** Lines as written (JSON.parse would hide a field written twice) and parsed. */
function capture() {
  const raw: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { raw, lines, destination };
}

/** How often `"field":` occurs in a raw line. */
const occurrences = (line: string, field: string) => line.split(`"${field}":`).length - 1;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

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

  it('writes every line in the one schema: level label, ISO time, pid, hostname, component', () => {
    const { raw, lines, destination } = capture();
    const log = createLogger({ component: 'gateway', base: { worker: 1 }, destination });
    log.info({ hook: 'a.example.com' }, 'one');
    log.child({ reqId: 'abc-1' }).error({}, 'two');
    for (const line of lines) {
      expect(line).toMatchObject({ pid: process.pid, hostname: hostname(), component: 'gateway', worker: 1 });
      expect(line['time']).toMatch(ISO_TIME);
    }
    expect(lines.map((l) => [l['level'], l['msg']])).toEqual([
      ['info', 'one'],
      ['error', 'two'],
    ]);
    expect(lines[1]).toMatchObject({ reqId: 'abc-1' });
    for (const line of raw)
      for (const field of ['level', 'time', 'pid', 'hostname', 'component', 'msg'])
        expect(occurrences(line, field), `${field} in ${line}`).toBe(1);
    expect(lines.some((l) => 'name' in l)).toBe(false);
  });

  it("gives a component's logger, and its children, that component once", () => {
    const { raw, lines, destination } = capture();
    const registry = componentLogger(
      createLogger({ component: 'gateway', base: { role: 'primary' }, destination }),
      'registry',
    );
    registry.info({ plugin: 'p' }, 'plugin registered');
    registry.child({ reqId: 'r-1' }).warn({}, 'registration refused');
    expect(lines.map((l) => [l['component'], l['role'], l['msg']])).toEqual([
      ['registry', 'primary', 'plugin registered'],
      ['registry', 'primary', 'registration refused'],
    ]);
    for (const line of raw) expect(occurrences(line, 'component'), line).toBe(1);
  });

  it('lets a call site name the component without writing the field twice', () => {
    const { raw, lines, destination } = capture();
    createLogger({ component: 'gateway', destination }).info({ component: 'tls' }, 'renewed');
    expect(lines[0]!['component']).toBe('tls');
    expect(occurrences(raw[0]!, 'component')).toBe(1);
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
