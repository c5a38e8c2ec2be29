/** Writes docs/errors.md from the catalogue: `npm run docs -w @hookgate/errors`. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderErrorDocs } from '../src/render-docs.js';

const target = fileURLToPath(new URL('../../../docs/errors.md', import.meta.url));
await writeFile(target, renderErrorDocs());
process.stdout.write(`wrote ${target}\n`);
