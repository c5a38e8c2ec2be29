import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { collectProcessLog } from './process-log.js';

/** A real child process writing the given stdout and stderr text, split across writes. */
function childWriting(stdout: string[], stderr: string) {
  const script = `
    const parts = ${JSON.stringify(stdout)};
    process.stderr.write(${JSON.stringify(stderr)});
    let i = 0;
    const next = () => { if (i < parts.length) process.stdout.write(parts[i++], () => setTimeout(next, 5)); };
    next();
  `;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('collectProcessLog', () => {
  it('parses JSON lines split across chunks, keeps other lines as msg and skips blank ones', async () => {
    const child = childWriting(['{"msg":"start', 'ed","port":1}\n\nplain text\n', '{"msg":"done"}\n'], 'warn\n');
    const log = collectProcessLog(child, 'fixture');
    await expect(log.waitForLog((l) => l.msg === 'done', 10_000)).resolves.toEqual({ msg: 'done' });
    await once(child, 'close');
    expect(log.lines).toEqual([{ msg: 'started', port: 1 }, { msg: 'plain text' }, { msg: 'done' }]);
    expect(log.stderr).toEqual(['warn']);
    await expect(log.waitForLog((l) => l['port'] === 1)).resolves.toEqual({ msg: 'started', port: 1 });
  });

  it('rejects a wait that times out, naming the process, its stderr and its last lines', async () => {
    const child = childWriting(['{"msg":"only line"}\n'], 'something broke\n');
    const log = collectProcessLog(child, 'fixture');
    await once(child, 'close');
    await expect(log.waitForLog((l) => l.msg === 'never', 50)).rejects.toThrow(
      /fixture log line not seen within 50 ms; stderr:\nsomething broke\nlast logs:\n\{"msg":"only line"\}/,
    );
  });
});
