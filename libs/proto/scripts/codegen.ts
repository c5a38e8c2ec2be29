/**
 * Generates the TypeScript bindings in src/generated/ with proto-loader-gen-types, using the same
 * options the runtime loader uses (src/loader-options.ts). `npm run generate -w libs/proto`.
 * The bindings test regenerates into a temporary directory and fails on any difference.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PROTO_FILES } from '../src/proto-files.js';

const run = promisify(execFile);
const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const generator = createRequire(import.meta.url).resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js');

/** Mirrors LOADER_OPTIONS: camelCase fields, longs as numbers, enums as strings, bytes as Buffer. */
const GENERATOR_FLAGS = [
  '--longs=Number',
  '--enums=String',
  '--defaults',
  '--oneofs',
  '--grpcLib=@grpc/grpc-js',
  '--importFileExtension=.js',
  '--includeComments',
];

export async function generateBindings(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  // cwd is fixed so that the "Original file:" header in each output is the same wherever it runs.
  await run(process.execPath, [generator, ...GENERATOR_FLAGS, '-I', 'proto', '-O', outDir, ...PROTO_FILES], {
    cwd: projectDir,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generateBindings(path.join(projectDir, 'src', 'generated'));
}
