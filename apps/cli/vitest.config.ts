import { defineConfig } from 'vitest/config';

// Many tests run the `hookgate` command as a process (tsx start-up is seconds on a busy 2-core
// machine): bounded, but not by vitest's 5 s default.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
