/** Defined with the protocol, so that the route clients (which the web client imports directly) throw the same class. */
export { AviaryApiError, type AviaryErrorCode } from '@aviary/protocol';

/** A call took longer than the client's `timeoutMs`; it may or may not have taken effect on the server. */
export class AviaryTimeoutError extends Error {
  readonly method: string;
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number) {
    super(`${method} did not answer within ${timeoutMs} ms`);
    this.name = 'AviaryTimeoutError';
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}
