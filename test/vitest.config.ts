import { defineConfig } from 'vitest/config';

// Multi-process end-to-end tests: files run one after another (they start gateways, plugins and
// webhooks on ephemeral ports), with generous but bounded timeouts for process start-up on 2 cores.
export default defineConfig({
  test: {
    // e2e/: multi-process tests; src/: tests of the harness pieces (fake apiserver, informer).
    include: ['e2e/**/*.test.ts', 'src/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
  },
});
