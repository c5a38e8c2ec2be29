/** How the harness starts TypeScript entry points (packages export source; tsx loads it). */
import { fileURLToPath } from 'node:url';

/** Absolute, so children resolve it whatever their working directory. */
export const TSX_IMPORT = import.meta.resolve('tsx');

export function benchScript(relativeToSrc: string): string {
  return fileURLToPath(new URL(`../${relativeToSrc}`, import.meta.url));
}

/** The repository root (tools/bench/src/processes → ../../../..). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function nodeArgs(script: string, args: readonly string[], execArgv: readonly string[] = []): string[] {
  return [...execArgv, '--import', TSX_IMPORT, script, ...args];
}
