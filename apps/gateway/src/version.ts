/** The gateway's release: the version in its package.json (there is no build step to stamp it). */
import { readFileSync } from 'node:fs';

export const GATEWAY_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
