import { defineConfig } from 'vitest/config';
import { CLUSTER_TEST_FILES, SERVER_TESTS } from './apps/server/vitest.config.ts';

// One test command for every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    projects: [
      'packages/protocol',
      { test: { ...SERVER_TESTS, root: './apps/server', exclude: CLUSTER_TEST_FILES } },
      // One worker: vitest runs such a project's files alone, after every other project.
      { test: { ...SERVER_TESTS, root: './apps/server', name: 'server-cluster', include: CLUSTER_TEST_FILES, maxWorkers: 1 } },
      'apps/simulator',
      'apps/serial-bridge',
      'apps/web',
    ],
    // Most server test files wait on lifts, brokers and timers far more than they compute
    // (a serial run used a third of one core), so three files run at a time even on a
    // 2-core machine.
    maxWorkers: 3,
  },
});
