import pino from 'pino';
import type { Config } from './config.js';

/** The server's log: JSON lines with secrets and tokens redacted, on stdout unless `logTo` says otherwise. */
export function createLog(config: Pick<Config, 'logLevel'>, logTo: pino.DestinationStream = pino.destination(1)): pino.Logger {
  return pino({ level: config.logLevel, redact: ['secret', '*.secret', 'token', '*.token', 'req.headers.authorization'] }, logTo);
}
