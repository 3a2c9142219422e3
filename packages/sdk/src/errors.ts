import { isErrorCode, type ErrorBody, type ErrorCode } from '@aviary/protocol';

/**
 * A registry code, or `UnknownError` when the answer carried none this SDK knows (a newer server's code,
 * or a proxy's HTML page): `rawCode` keeps what came.
 */
export type AviaryErrorCode = ErrorCode | 'UnknownError';

/** Every failed call throws this: the error body's fields, plus the HTTP status. */
export class AviaryApiError extends Error {
  readonly code: AviaryErrorCode;
  /** The `error` of the answer as it came, or `HTTP<status>` when the answer had none. */
  readonly rawCode: string;
  readonly status: number;
  /** The parameter at fault, when the error is about one (`InvalidParameter`, `UnknownChannel`…). */
  readonly parameter?: string;
  readonly body: ErrorBody | Record<string, unknown>;

  constructor(status: number, body: ErrorBody | Record<string, unknown>) {
    const rawCode = typeof body.error === 'string' ? body.error : `HTTP${status}`;
    super(typeof body.description === 'string' ? `${rawCode}: ${body.description}` : `${rawCode} (HTTP ${status})`);
    this.name = 'AviaryApiError';
    this.code = isErrorCode(rawCode) ? rawCode : 'UnknownError';
    this.rawCode = rawCode;
    this.status = status;
    this.body = body;
    if (typeof body.parameter === 'string') this.parameter = body.parameter;
  }
}

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
