export { loadConfig, type Config, type ConfigInput } from './config.js';
export { startServer, createContext, type RunningServer } from './server.js';
export { openStore, type Store } from './store/store.js';
