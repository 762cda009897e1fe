import { defineConfig } from 'vitest/config';

/**
 * The files that start a private broker cluster (three Erlang VMs or NATS nodes) or kill
 * and restart brokers: they take both cores while they run and time their failovers, so
 * the workspace's test run gives them a project of their own that runs one file at a time,
 * after the others (vitest.config.ts at the root).
 */
export const CLUSTER_TEST_FILES = [
  'test/rabbitmq-cluster.test.ts',
  'test/alarm-device.test.ts',
  'test/command-expiry.test.ts',
  'test/faults.test.ts',
  'test/mosquitto.test.ts',
];

export const SERVER_TESTS = {
  name: 'server',
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // One migrated embedded database, the image each test's fresh PGlite starts from.
  globalSetup: ['test/support/pglite-template.ts'],
};

export default defineConfig({ test: SERVER_TESTS });
