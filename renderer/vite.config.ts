import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  // This folder, wherever the build is started from (Node >= 20.11 provides import.meta.dirname).
  root: import.meta.dirname,
  // Relative asset URLs: the same build loads over HTTP (npm run serve) and from disk in Electron.
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    // Relative to root: the headless server and Electron load the console from dist/renderer.
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Monaco is one large chunk by nature; it is loaded only on the Configuration page.
    chunkSizeWarningLimit: 5000,
  },
});
