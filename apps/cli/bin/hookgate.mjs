#!/usr/bin/env node
/* global process */
// The `hookgate` command. Packages export TypeScript source, so register tsx's loader first, then
// load the CLI. No build step: `npx hookgate ...` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv);
