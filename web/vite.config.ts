import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { precompress } from './compress'

/**
 * The web app (docs/web.md), built into dist/web and served by the service at /. Pages are split into
 * chunks loaded with their route, so a first load of /dashboard fetches only the shell and that page.
 * WEB_OUT_DIR lets the test helper build elsewhere and swap the result in whole.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  // React 19 is this workspace's own (web/node_modules on a clean install): the test runner's reporter
  // keeps React 18 at the top. Dedupe makes react-router, hoisted to the top, use the app's React too.
  resolve: { dedupe: ['react', 'react-dom'] },
  build: {
    outDir: process.env.WEB_OUT_DIR ?? fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline module preload polyfill: the CSP allows no inline script, and current browsers need none.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
})
