// Lint: TypeScript rules, module boundaries between Nx projects (by tag), and
// a hard ban on I/O and framework imports inside libs/admission.
//
// Who may import whom (tags in each package.json "nx" block):
//   libs (type:lib)          import libs only, and by layer: domain and contract stand alone,
//                            adapters build on domain, contract, observability and each other;
//   apps (type:app)          import libs, never another app;
//   apps/cli (type:command)  the gateway's command: libs, and apps/gateway (app:gateway) only;
//   tools/ (type:tool), test/ (type:e2e): anything (libs, apps, tools).
// Test files of apps and libs may also use the dev tooling (tools/dev, tool:dev), which imports libs only.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

/** Who may import whom, by tag (see the header). */
const DEP_CONSTRAINTS = [
  { sourceTag: 'layer:domain', onlyDependOnLibsWithTags: [] },
  // libs/errors: the error catalogue, a leaf every lib but the domain may import.
  { sourceTag: 'layer:errors', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'layer:contract', onlyDependOnLibsWithTags: ['layer:errors'] },
  { sourceTag: 'layer:observability', onlyDependOnLibsWithTags: ['layer:errors'] },
  {
    sourceTag: 'layer:adapter',
    onlyDependOnLibsWithTags: [
      'layer:domain',
      'layer:contract',
      'layer:observability',
      'layer:adapter',
      'layer:errors',
    ],
  },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:command', onlyDependOnLibsWithTags: ['type:lib', 'app:gateway'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:command', 'type:tool'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:command', 'type:tool'] },
  // tools/dev is what app tests may use, so it imports libs only.
  { sourceTag: 'tool:dev', onlyDependOnLibsWithTags: ['type:lib'] },
];

/**
 * Tests of libs may also use tools/dev (tool:dev: Redis discovery, free ports), as app tests may:
 * the libs' constraints with tool:dev added.
 */
const LIB_TEST_CONSTRAINTS = DEP_CONSTRAINTS.filter(
  (c) => c.sourceTag.startsWith('layer:') || c.sourceTag === 'type:lib',
).map((c) => ({ ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'tool:dev'] }));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.nx/**', 'libs/proto/src/generated/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    plugins: { '@nx': nx },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: DEP_CONSTRAINTS,
        },
      ],
    },
  },
  {
    // Test code of apps may also use the dev tooling (Redis discovery, free ports, a gateway process),
    // but not tools/bench, which imports the gateway: a plugin's test must not reach another app.
    files: ['apps/**/*.test.ts', 'apps/**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'tool:dev'] },
            { sourceTag: 'type:command', onlyDependOnLibsWithTags: ['type:lib', 'app:gateway', 'tool:dev'] },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/**/*.test.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, depConstraints: LIB_TEST_CONSTRAINTS },
      ],
    },
  },
  {
    // libs/admission is the pure domain: no I/O, no frameworks, no timers of its own.
    files: ['libs/admission/src/**/*.ts'],
    ignores: ['libs/admission/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:*',
                'fs',
                'net',
                'http',
                'https',
                'http2',
                'child_process',
                'dgram',
                'tls',
                'worker_threads',
                'cluster',
              ],
              message: 'libs/admission does no I/O.',
            },
            {
              group: [
                'fastify',
                'fastify/*',
                '@fastify/*',
                'bullmq',
                'ioredis',
                '@grpc/*',
                'pino',
                'prom-client',
                'undici',
                '@kubernetes/*',
              ],
              message: 'libs/admission imports no framework.',
            },
            { group: ['@hookgate/*'], message: 'libs/admission depends on no other Hookgate project.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'libs/admission does no I/O.' },
        { name: 'setTimeout', message: 'timers are injected.' },
        { name: 'setInterval', message: 'timers are injected.' },
        { name: 'process', message: 'no environment access in the domain.' },
      ],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
