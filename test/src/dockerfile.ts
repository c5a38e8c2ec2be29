/**
 * Reads the repository's Dockerfile into stages of instructions (continuation lines joined,
 * comments dropped), so tests can hold the images to the production layout without Docker.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '@hookgate/devtools';

export interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

export interface Stage {
  readonly name: string;
  readonly from: string;
  readonly instructions: readonly Instruction[];
}

export async function readDockerfile(file = join(REPO_ROOT, 'Dockerfile')): Promise<Stage[]> {
  const text = (await readFile(file, 'utf8')).replace(/\\\n/g, ' ');
  const stages: { name: string; from: string; instructions: Instruction[] }[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(trimmed) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [from = '', , name = ''] = args.split(/\s+/);
      stages.push({ name, from, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') });
    }
  }
  return stages;
}

/** The values of `--workspace X` (or `-w X`) in a command line. */
export function workspacesOf(command: string): string[] {
  return [...command.matchAll(/(?:--workspace|-w)\s+(\S+)/g)].map((match) => match[1]!);
}

/** The JSON (exec) form of ENTRYPOINT or CMD. */
export function execForm(args: string): string[] {
  return JSON.parse(args) as string[];
}
