import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset URLs: the same build loads over HTTP (npm run serve) and from disk in Electron.
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Monaco is one large chunk by nature; it is loaded only on the Configuration page.
    chunkSizeWarningLimit: 5000,
  },
});
