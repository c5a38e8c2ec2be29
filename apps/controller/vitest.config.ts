import { defineConfig } from 'vitest/config';

// Tests run the controller as a process (tsx start-up is seconds on a busy 2-core
// machine): bounded, but not by vitest's 5 s default.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
