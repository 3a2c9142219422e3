import react from '@vitejs/plugin-react';
import { readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** The built files worth compressing: text. */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg']);

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build, once, at their
 * highest levels: the server sends the one the browser accepts (api/webClient.ts) and compresses nothing
 * per request.
 */
function precompress(): Plugin {
  return {
    name: 'aviary-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.has(extname(fileName))) continue;
        const path = join(dir, fileName);
        const content = readFileSync(path);
        writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * The server serves dist/ under a CSP without inline scripts or styles, so the build must emit none:
 * no inlined assets (every file is fetched from /assets/), and CSS as files.
 */
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
