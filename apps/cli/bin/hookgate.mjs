#!/usr/bin/env node
/* global process */
// The `hookgate` command. Production (the built layout, no condition set) runs the compiled
// dist/main.js with plain node. In the repository, npm sets the `development` export condition
// (.npmrc node-options): packages then resolve to their TypeScript sources, so register tsx's
// loader first and run src/main.ts: `npx hookgate ...` works right after `npm ci`, without a build.
const fromSource = import.meta.resolve('@hookgate/cli').endsWith('.ts');
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
}
let main;
try {
  ({ main } = await import('@hookgate/cli'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/cli/dist/')) throw error;
  process.stderr.write(
    'hookgate: apps/cli/dist is missing: run `npm run build`, or run through npm (`npx hookgate`) to use the sources\n',
  );
  process.exit(1);
}
process.exitCode = await main(process.argv);
