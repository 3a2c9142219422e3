// The import rules `npm test` enforces (`npm run lint:deps`). docs/ARCHITECTURE.md explains the layers.

const server = '^packages/server/src/';

// packages/server/src, top to bottom: a module may import its own layer and the layers below it, never
// one above. The entry points are the CLI and index.ts (what the package exports); `server.ts` wires
// every layer together, so only they sit above it. `context.ts` (ServerContext, which adds the API's rate
// limits) belongs to the API layer: core and events take their own CoreContext and EventsContext. At the
// bottom, used by every layer: the store, `net/` (guarded requests to URLs people gave), `config.ts`,
// `errors.ts` (the error values every layer throws), `log.ts`, `bus/` (messages between processes) and
// `redis.ts` (the process's Redis connection, for shared rate limits and a Redis bus).
const layers = [
  { name: 'entry', paths: ['cli/', 'index\\.ts$'] },
  { name: 'wiring', paths: ['server\\.ts$'] },
  { name: 'api', paths: ['api/', 'context\\.ts$'] },
  { name: 'core', paths: ['core/'] },
  { name: 'events', paths: ['events/'] },
  { name: 'foundation', paths: ['store/', 'net/', 'bus/', 'config\\.ts$', 'errors\\.ts$', 'log\\.ts$', 'redis\\.ts$', 'version\\.ts$'] },
];

const inLayers = (list) => list.flatMap((layer) => layer.paths.map((path) => server + path));

const upwardImports = layers.slice(1).map((layer, index) => ({
  name: `${layer.name}-imports-no-layer-above`,
  comment:
    `${layer.name} sits below ${layers.slice(0, index + 1).map((above) => above.name).join(', ')}. ` +
    'Error values live in src/errors.ts, below every layer, so nothing below the API needs api/errors.ts.',
  severity: 'error',
  from: { path: inLayers([layer]) },
  to: { path: inLayers(layers.slice(0, index + 1)) },
}));

module.exports = {
  forbidden: [
    ...upwardImports,
    // The store and the network guard are siblings at the bottom: neither needs the other.
    {
      name: 'store-imports-no-net',
      severity: 'error',
      from: { path: server + 'store/' },
      to: { path: [server + 'net/'] },
    },
    {
      name: 'net-imports-no-store',
      severity: 'error',
      from: { path: server + 'net/' },
      to: { path: [server + 'store/'] },
    },
    {
      name: 'events-parts-stay-apart',
      comment:
        'In events/, delivery uses the outbox and signing; the outbox, signing and the history use none of ' +
        'the other parts, only the shared context and ids (docs/ARCHITECTURE.md "Events").',
      severity: 'error',
      from: { path: server + 'events/(outbox|signing|history)/' },
      to: { path: server + 'events/(outbox|delivery|signing|history)/', pathNot: server + 'events/$1/' },
    },
    {
      name: 'config-imports-nothing-of-ours',
      comment:
        'Every module may read the configuration, so it depends on no other module of the server, except ' +
        'its own parts in config/ (the settings of one area: files, single sign-on), which import nothing of ours.',
      severity: 'error',
      from: { path: server + 'config(\\.ts$|/)' },
      to: { path: server, pathNot: server + 'config/' },
    },
    {
      name: 'pure-packages-have-no-io',
      comment:
        'protocol and serviceml run unchanged in the server, the SDK and the browser: no Node built-ins, ' +
        'no server or SDK code, and no npm package besides TypeBox.',
      severity: 'error',
      from: { path: '^packages/(protocol|serviceml)/src/' },
      to: {
        pathNot: ['^packages/(protocol|serviceml)/src/', 'node_modules/@sinclair/typebox/'],
      },
    },
    {
      name: 'web-runs-in-the-browser',
      comment:
        'The web client talks to the server over HTTP only: it may use the pure packages (protocol, serviceml) ' +
        'and its npm dependencies, never server, SDK or Node code. The server reads its build output as files.',
      severity: 'error',
      from: { path: '^packages/web/src/' },
      to: { path: ['^packages/(server|sdk)/', '^node:'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-imports-no-web-source',
      severity: 'error',
      from: { path: '^packages/(server|sdk|protocol|serviceml)/src/' },
      to: { path: '^packages/web/' },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes the load order decide what a module sees; break it by moving the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve would hide a dependency from every other rule.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^packages/[^/]+/(test|bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
