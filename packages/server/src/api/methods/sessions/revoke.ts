import { api } from '@aviary/protocol';
import { revokeSessions } from '../../../core/commands/accounts.js';
import { invalidParameter, missingParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/** Exactly one of sessionId and all: true; exceptCurrent only with all. */
export default defineHandler(api.sessions.revoke, async ({ sessionId, all, exceptCurrent }, { user, sessionHash, clientAddress }, ctx) => {
  if (sessionId !== undefined && all !== undefined) throw invalidParameter('all', 'Give either sessionId or all, not both.');
  if (exceptCurrent !== undefined && all !== true) throw invalidParameter('exceptCurrent', 'exceptCurrent goes with all: true.');
  if (all === false) throw invalidParameter('all', 'all must be true, or left out and a sessionId given.');
  if (sessionId === undefined && all === undefined) throw missingParameter('sessionId');
  const which = sessionId !== undefined ? { sessionId } : { all: true as const, exceptCurrent: exceptCurrent === true };
  const revoked = await revokeSessions(ctx, { person: user, sessionHash, address: clientAddress }, which);
  return { revoked };
});
