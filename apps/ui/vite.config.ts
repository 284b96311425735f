import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react-swc';

// The web UI: built to dist/ui, served by the api role at /ui (apps/api/src/web-ui.module.ts).
// Everything is bundled (no CDN, no web fonts), so it works offline.
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/ui', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
  },
  // `vite` (dev server) proxies the API to a running service.
  server: { proxy: { '/v1': process.env['SSA_AUDIT_URL'] ?? 'http://127.0.0.1:3000' } },
});
