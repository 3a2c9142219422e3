import type { ErrorBody, ErrorCode } from './errors.js';

/** What every failed call of a typed client throws: the error body's fields, plus the HTTP status. */
export class AviaryApiError extends Error {
  /** A registry code; `string & {}` keeps codes of a newer server without collapsing the union to `string`. */
  readonly code: ErrorCode | (string & {});
  readonly status: number;
  readonly parameter?: string;
  readonly body: ErrorBody | Record<string, unknown>;

  constructor(status: number, body: ErrorBody | Record<string, unknown>) {
    const code = typeof body.error === 'string' ? body.error : `HTTP${status}`;
    super(typeof body.description === 'string' ? `${code}: ${body.description}` : `${code} (HTTP ${status})`);
    this.name = 'AviaryApiError';
    this.code = code;
    this.status = status;
    this.body = body;
    if (typeof body.parameter === 'string') this.parameter = body.parameter;
  }
}
