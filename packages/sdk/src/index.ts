export { AviaryClient, type AviaryClientOptions } from './client.js';
export { AviaryApiError } from './errors.js';
