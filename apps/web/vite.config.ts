import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';

const server = process.env.LIFTLINK_API ?? 'http://127.0.0.1:8080';
const proxied = ['/auth', '/account', '/manufacture', '/api', '/health', '/docs'];

export default defineConfig({
  // Brotli and gzip copies of every text file: the server sends them by Accept-Encoding.
  plugins: [react(), precompress()],
  server: {
    proxy: {
      ...Object.fromEntries(proxied.map((path) => [path, { target: server, changeOrigin: false }])),
      '/ws': { target: server, ws: true },
    },
  },
  preview: {
    proxy: {
      ...Object.fromEntries(proxied.map((path) => [path, { target: server, changeOrigin: false }])),
      '/ws': { target: server, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // bench/web-budget.ts follows the static imports of each chunk through the manifest.
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      treeshake: {
        // The protocol package only declares values: what the client does not use may go
        // (device config schemas, MQTT payloads), which keeps the login page small.
        // @rc-component/* (antd's building blocks) run nothing on import but do not say so in
        // their package.json: without this, any antd control that reads the form context
        // (Tabs, Tooltip, ...) brings the whole form engine and its validator into the shell.
        moduleSideEffects: (id: string) =>
          /[\\/]packages[\\/]protocol[\\/]src[\\/]/.test(id) ||
          /[\\/]node_modules[\\/]@rc-component[\\/]/.test(id)
            ? false
            : undefined,
      },
    },
  },
});
