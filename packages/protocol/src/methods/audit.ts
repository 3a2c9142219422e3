import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { closedObject } from '../params.js';

/** The cursor of audit.list: the time and id of the last row of the previous page. */
export const auditCursorPattern = /^\d{1,15}:[0-9A-Z]{26}$/;
/** The largest page audit.list answers. */
export const maxAuditPage = 200;

const Time = (description: string) => Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000, description });

export const AuditEntry = Type.Object(
  {
    id: Type.String(),
    at: Type.Integer({ description: 'when, in epoch milliseconds' }),
    actorUserId: Type.Union([Type.String(), Type.Null()], { description: 'the person who acted; null for the command line or someone unknown' }),
    actorName: Type.Union([Type.String(), Type.Null()], { description: 'that person’s name as it is now' }),
    actorAppId: Type.Union([Type.String(), Type.Null()], { description: 'the app they acted through, if any' }),
    action: Type.String({ description: 'a short dotted name such as session.signIn or app.secretRotated (docs/operations.md)' }),
    targetKind: Type.String({ description: 'user, app, invitation, team, message, session…' }),
    targetId: Type.String(),
    address: Type.Union([Type.String(), Type.Null()], { description: 'the client’s address as AVIARY_TRUST_PROXY decides; null for the command line' }),
    details: Type.Record(Type.String(), Type.Unknown(), { description: 'a few facts about the action, never a secret' }),
  },
  { additionalProperties: false },
);

export const list = defineMethod({
  name: 'audit.list',
  summary: 'A team admin reads the team’s audit log, newest first, a page at a time, optionally filtered.',
  callers: ['session'],
  rateClass: 'read',
  params: closedObject({
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only actions starting with this, such as "app." or "session.signIn"' })),
    actorUserId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only what this person did' })),
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only actions on this target (a person, app, invitation… id)' })),
    since: Type.Optional(Time('only actions at or after this time (epoch milliseconds)')),
    until: Type.Optional(Time('only actions before this time (epoch milliseconds)')),
    cursor: Type.Optional(Type.String({ pattern: auditCursorPattern.source, description: 'the nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxAuditPage, description: `page size, 1 to ${maxAuditPage} (default 50)` })),
  }),
  result: closedObject({
    entries: Type.Array(AuditEntry),
    nextCursor: Type.Optional(Type.String({ description: 'present when there may be more: pass it as cursor for the next page' })),
  }),
  errors: ['PermissionDenied'],
});
