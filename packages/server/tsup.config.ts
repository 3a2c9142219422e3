import { defineConfig } from 'tsup';

// The CLI and the server, built once so that `aviary <command>` starts without compiling TypeScript
// (scripts/build-if-stale.mjs runs this; bin/aviary.js loads the result). Everything is bundled in: the
// private workspace packages (TypeScript sources), and the npm packages too, since loading kysely's or
// fastify's hundreds of files one by one took half of a command's start. Only native addons stay imports.
const nativeAddons = ['better-sqlite3', 'pg-native'];

export default defineConfig({
  entry: { 'cli/main': 'src/cli/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // The commands load the HTTP stack only when they need it (`import()`): each such import stays a chunk.
  splitting: true,
  noExternal: [new RegExp(`^(?!(${nativeAddons.join('|')})$)`)],
  external: nativeAddons,
  // CommonJS packages bundled into ES modules still call require() for Node's own modules.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  esbuildOptions(options) {
    // Beside the entry, at the depth of src/api/: paths the code takes from its own file
    // (webClient.ts's `../../../web/dist/`) point where they do from the sources.
    options.chunkNames = 'cli/[name]-[hash]';
  },
  clean: true,
  dts: false,
  sourcemap: false,
  outDir: 'dist',
});
