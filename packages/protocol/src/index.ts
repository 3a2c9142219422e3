export * from './define.js';
export * from './errors.js';
export * from './ids.js';
export * from './models.js';
export * from './openapi.js';
export * from './params.js';
export { api, methodsByName, type MethodName } from './methods/index.js';
export * from './events.js';
