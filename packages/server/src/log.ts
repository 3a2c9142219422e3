import pino from 'pino';
import type { Config } from './config.js';

/** Where log lines are written: stdout, or (in tests) anything that takes one line at a time. */
export type LogDestination = pino.DestinationStream;

/** The server's log: JSON lines with secrets and tokens redacted, on stdout unless `logTo` says otherwise. */
export function createLog(config: Pick<Config, 'logLevel'>, logTo: LogDestination = pino.destination(1)): pino.Logger {
  return pino({ level: config.logLevel, redact: ['secret', '*.secret', 'token', '*.token', 'req.headers.authorization'] }, logTo);
}
