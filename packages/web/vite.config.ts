import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The server serves dist/ under a CSP without inline scripts or styles, so the build must emit none:
 * no inlined assets (every file is fetched from /assets/), and CSS as files.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
