import { isErrorCode, type ErrorBody, type ErrorCode } from './errors.js';

/**
 * A registry code, or `UnknownError` when the answer carried none this code knows (a newer server's code,
 * or a proxy's HTML page): `rawCode` keeps what came.
 */
export type AviaryErrorCode = ErrorCode | 'UnknownError';

/**
 * What every failed call of a typed client throws (the SDK's method client, the route clients): the
 * error body's fields, plus the HTTP status. Defined with the protocol, so that the route clients, which
 * the web client imports directly, throw the same class as the SDK.
 */
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
