/** The version `hookgate --version` prints: the CLI package's own (there is no build step to stamp one). */
import { createRequire } from 'node:module';

const manifest = createRequire(import.meta.url)('../package.json') as { version: string };

export const CLI_VERSION: string = manifest.version;
