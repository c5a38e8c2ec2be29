/** `hookgate ca ...`: the CA files of one node's state directory (apps/gateway/src/tls/ca-files.ts). */
import { readFile } from 'node:fs/promises';
import {
  CaFileError,
  createCa,
  dropPreviousCa,
  exportCa,
  importCa,
  promoteNextCa,
  type CaSummary,
} from '@hookgate/gateway/tls';
import { stateDirOrReport, type StateDirFlags } from './state-dir.js';

export interface CaFlags extends StateDirFlags {
  next?: boolean;
  force?: boolean;
}

const describe = (ca: CaSummary) => `${ca.subject} (SHA-256 ${ca.fingerprint256}, expires ${ca.notAfter})`;
const BUNDLE_HINT = 'run `hookgate print-webhooks` and apply it: the caBundle must change';

export async function caCommand(
  action: 'create' | 'export' | 'import' | 'promote' | 'drop-previous',
  flags: CaFlags,
  file: string | undefined,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const dir = await stateDirOrReport(flags, err);
  if (dir === undefined) return 1;
  const slot = flags.next ? 'next' : 'current';
  const which = flags.next ? 'next CA' : 'CA';
  try {
    switch (action) {
      case 'create': {
        const ca = await createCa(dir, { slot, force: flags.force ?? false });
        err.write(`created the ${which}: ${describe(ca)}${flags.next ? `; ${BUNDLE_HINT} (both CAs)` : ''}\n`);
        return 0;
      }
      case 'export':
        out.write(await exportCa(dir, slot));
        return 0;
      case 'import': {
        const pem = file === '-' ? await readStdin() : await readFile(file!, 'utf8');
        const ca = await importCa(dir, pem, { slot, force: flags.force ?? false });
        err.write(`imported the ${which}: ${describe(ca)}\n`);
        return 0;
      }
      case 'promote': {
        const { current, previous } = await promoteNextCa(dir);
        err.write(
          `the CA is now ${describe(current)}${previous ? `; ${describe(previous)} stays trusted until \`hookgate ca drop-previous\`` : ''}\n`,
        );
        return 0;
      }
      case 'drop-previous': {
        const had = await dropPreviousCa(dir);
        err.write(had ? `the previous CA is no longer trusted; ${BUNDLE_HINT}\n` : 'there was no previous CA\n');
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof CaFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
      err.write(`hookgate ca ${action}: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
