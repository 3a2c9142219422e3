/**
 * Every error the method API can return, defined once: code, HTTP status and the default description.
 * The server, the SDK's types and docs/errors.md all derive from this table (a test keeps them in step).
 */
export const errorRegistry = {
  InvalidRequestData: { status: 400, description: 'The request is malformed: its body could not be read.' },
  MissingParameter: { status: 400, description: 'A required parameter is absent or empty.' },
  InvalidParameter: { status: 400, description: 'A parameter is present but invalid.' },
  InvalidToken: { status: 403, description: 'The token is unknown, revoked, or belongs to an uninstalled app.' },
  AppDisabled: { status: 403, description: 'The app is disabled for this user.' },
  NotSignedIn: { status: 401, description: 'Sign in first: the session is missing, expired or signed out.' },
  InvalidCredentials: { status: 401, description: 'The email or password is wrong.' },
  PermissionDenied: { status: 403, description: 'The caller may not do this.' },
  NoSuchMethod: { status: 404, description: 'No method has this name.' },
  HTTPMethodNotAllowed: { status: 405, description: 'Methods are called with GET or POST.' },
  RequestTimeout: { status: 408, description: 'The complete request did not arrive in time.' },
  RequestTooLarge: { status: 413, description: 'The request body is larger than the limit.' },
  TooManyRequests: { status: 429, description: 'Rate limit reached; retry after the time given.' },
  InternalServerError: { status: 500, description: 'An unexpected condition occurred.' },
  ServiceUnavailable: { status: 503, description: 'The service is unavailable at this time; retry later.' },
  UnknownRecipient: { status: 400, description: 'No such user or channel, or the caller may not post there.' },
  UnknownChat: { status: 400, description: 'No such chat, or the caller is not a member of it.' },
  UnknownChannel: { status: 400, description: 'No such channel, or the caller cannot see it.' },
  UnknownUser: { status: 400, description: 'No such user in the caller’s team.' },
  AppUnreachable: { status: 502, description: 'The app’s event listener did not answer in time, or answered with an error.' },
  UnknownWebhook: { status: 404, description: 'No such webhook, or it was revoked.' },
  UnknownApp: { status: 404, description: 'No such app, or the caller may not see it.' },
  InstallFailed: { status: 502, description: 'The app’s event listener did not accept the install; nothing was installed.' },
  InstallInProgress: { status: 409, description: 'An install of this app for this person is already under way; try again once it has finished.' },
  NotInstalled: { status: 409, description: 'The caller has not installed this app.' },
  BotNotEnabled: { status: 409, description: 'The app’s bot is not enabled; enable it first.' },
  OriginNotAllowed: { status: 400, description: 'The URL’s origin is not one the app’s developer registered for the app’s tokens.' },
  CrossSiteRequest: { status: 403, description: 'The request came from another site; sign-in and session changes come only from this server’s own pages.' },
  UnknownResponseUrl: { status: 404, description: 'No event gave this response URL: it is mistyped, forged, or from another server.' },
  ResponseUrlExpired: { status: 410, description: 'The response URL has expired: replies are taken for 30 minutes after the event.' },
  ResponseUrlUsedUp: { status: 410, description: 'The response URL has taken its 5 replies; it takes no more.' },
  TeamRequired: { status: 409, description: 'The email and password open accounts in several teams; sign in again naming one of the teams given.' },
  InvitationUnusable: { status: 410, description: 'The invitation is unknown, expired, used up or revoked; ask whoever invited you for a new one.' },
  AccountLinkUnusable: { status: 410, description: 'The password-reset or verification link is unknown, expired or already used; ask for a new one.' },
  PasswordSignInOff: { status: 403, description: 'The team signs in through its single sign-on provider only: use the sign-on button instead of a password.' },
  MailNotConfigured: { status: 409, description: 'The server sends no mail (no SMTP is set up); ask a team admin instead.' },
  ChannelArchived: { status: 409, description: 'The channel is archived: it is read-only until a team admin unarchives it.' },
  FileTooLarge: { status: 413, description: 'The file is larger than the server takes for one file.' },
  QuotaExceeded: { status: 413, description: 'The team’s files would pass its storage quota; delete some files, or ask the server’s operator for more.' },
  UnsupportedFile: { status: 415, description: 'The file’s bytes are not what its name says it is.' },
  UnknownFile: { status: 400, description: 'No such file, or the caller may not see it.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorRegistry;

export const errorCodes = Object.keys(errorRegistry) as ErrorCode[];

/** Context fields an error body may carry besides `error` and `description`. */
export interface ErrorContext {
  parameter?: string;
  disabledBy?: 'user' | 'team';
  retryAfter?: number;
  requestId?: string;
  /** The origin an app's token would have gone to (OriginNotAllowed). */
  origin?: string;
  /** TeamRequired: the teams whose account the password opened, to choose from. */
  teams?: Array<{ id: string; name: string }>;
}

export interface ErrorBody extends ErrorContext {
  error: ErrorCode;
  description: string;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorRegistry, value);
}

/** Error codes every method can return, before its own. */
export const commonErrors: readonly ErrorCode[] = [
  'InvalidRequestData',
  'MissingParameter',
  'InvalidParameter',
  'InvalidToken',
  'AppDisabled',
  'NoSuchMethod',
  'HTTPMethodNotAllowed',
  'RequestTimeout',
  'RequestTooLarge',
  'TooManyRequests',
  'InternalServerError',
  'ServiceUnavailable',
];
