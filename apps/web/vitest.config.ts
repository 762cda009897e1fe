import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // One bound for every test, on a hung test, not a measure of speed: on a slow day with the
    // server suites on the same two cores, page tests that click through antd tables took over
    // 30 s (their files' own bounds of 30 s were reached). A test whose behaviour is wrong fails
    // all the same; it only takes longer to say so.
    testTimeout: 120_000,
    css: false,
  },
});
