import { expect } from 'vitest';
import { denied, OK, post, sessionGate, type Row } from './rows.js';

/**
 * The audit log × every actor (docs/reference/methods.md, audit.list): only a team admin reads it, and
 * only their own team's rows. No method changes a row: audit.list is the only audit method there is
 * (test/ops/auditLog.test.ts checks the protocol has no other), and it reads.
 */
const refused = denied('PermissionDenied');

export const auditRows: Row[] = [
  {
    route: 'v1 audit.list with a session',
    credential: 'session',
    request: () => post('/v1/audit.list', { limit: 10 }),
    expect: {
      ...sessionGate,
      otherTeam: refused, nonMember: refused, nonInstaller: refused, guest: refused, userDisabled: refused, teamDisabled: refused,
      anotherDeveloper: refused, owner: refused, admin: OK,
    },
    reveals: (body, { w }) => expect(body.entries.every((entry: { actorUserId: string | null }) => entry.actorUserId === null || Object.values(w.actors).every((a) => a.kind !== 'otherTeam' || a.user?.id !== entry.actorUserId))).toBe(true),
  },
];
