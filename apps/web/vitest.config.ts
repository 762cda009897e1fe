import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A bound on a hung test, not a measure of speed: on a slow day with the server suites on
    // the same two cores, a page test that clicks through antd tables took over 30 s.
    testTimeout: 60_000,
    css: false,
  },
});
