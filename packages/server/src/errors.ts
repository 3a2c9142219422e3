import { errorRegistry, type ErrorBody, type ErrorCode, type ErrorContext } from '@aviary/protocol';

/**
 * An error answered to the caller as `{error, description, ...context}` with the registry's status.
 * Every layer may throw it (a refusal is part of what a command decides); api/ turns it into the answer.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly context: ErrorContext;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, description?: string, context: ErrorContext = {}, headers: Record<string, string> = {}) {
    super(description ?? errorRegistry[code].description);
    this.code = code;
    this.context = context;
    this.headers = headers;
  }

  get status(): number {
    return errorRegistry[this.code].status;
  }

  toBody(): ErrorBody {
    return { error: this.code, description: this.message, ...this.context };
  }
}

export const missingParameter = (parameter: string): ApiError =>
  new ApiError('MissingParameter', `The required parameter "${parameter}" is missing or empty.`, { parameter });

export const invalidParameter = (parameter: string, description: string): ApiError =>
  new ApiError('InvalidParameter', description, { parameter });
