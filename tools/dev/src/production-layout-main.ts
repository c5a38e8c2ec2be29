/**
 * `npm run layout -w @hookgate/devtools -- OUT_DIR PACKAGE...`: writes the production layout of the
 * workspace packages (e.g. @hookgate/cli) into OUT_DIR, for the Dockerfile's build stage. Install it
 * with `npm ci --omit=dev --workspace PACKAGE...` in OUT_DIR. Needs `npm run build` first.
 */
import { resolve } from 'node:path';
import { REPO_ROOT } from './gateway-process.js';
import { writeProductionLayout } from './production-layout.js';

const [outDir, ...packages] = process.argv.slice(2);
if (outDir === undefined || packages.length === 0) {
  console.error('usage: layout OUT_DIR PACKAGE... (workspace package names, e.g. @hookgate/cli)');
  process.exit(2);
}
// npm runs the script in tools/dev: a relative OUT_DIR is taken from where npm was started (INIT_CWD).
const target = resolve(process.env['INIT_CWD'] ?? process.cwd(), outDir);
try {
  const layout = await writeProductionLayout(REPO_ROOT, target, packages);
  console.log(`${target}: ${layout.shipped.join(', ')}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
