import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { STREAM_PATH } from './upgrade.js';

/** `GET /api/stream` without `Upgrade: websocket` (the upgrade never reaches Fastify): says how to open it. */
export function registerStreamPlainRequestRoute(app: FastifyInstance): void {
  app.get(STREAM_PATH, async () => {
    throw new ApiError('InvalidRequestData', `${STREAM_PATH} is the real-time stream: open it as a WebSocket (Upgrade: websocket).`);
  });
}
