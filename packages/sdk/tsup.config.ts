import { defineConfig } from 'tsup';

// The private workspace packages (@aviary/protocol) are bundled into the output, code and types, so that
// the tarball needs only what its package.json lists from npm.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  tsconfig: 'tsconfig.build.json',
  dts: true,
  noExternal: ['@aviary/protocol'],
  clean: true,
  sourcemap: false,
  outDir: 'dist',
});
