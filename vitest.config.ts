import { defineConfig } from 'vitest/config';

// One test command for every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    projects: ['packages/protocol', 'apps/server', 'apps/simulator', 'apps/serial-bridge', 'apps/web'],
  },
});
