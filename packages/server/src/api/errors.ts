// The error values live below the API (src/errors.ts), so that core and events can refuse without
// importing it; the routes keep importing them from here.
export { ApiError, invalidParameter, missingParameter } from '../errors.js';
