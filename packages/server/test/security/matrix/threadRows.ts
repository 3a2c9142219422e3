import { denied, OK, post, sessionGate, v1Gate, type Row } from './rows.js';

/**
 * Threads (issue 23): threads.* take a session only. The target is P's bot message: members of P may
 * follow its thread, unfollow it and mark it read; the others (another team, a teammate outside P, the
 * admin who is not in P) learn nothing of it. threads.list answers everyone signed in with their own.
 */
const messageUnseen = denied('InvalidParameter', { parameter: 'messageUid' });

const membersOfP: Row['expect'] = {
  ...v1Gate,
  otherTeam: messageUnseen, nonMember: messageUnseen, nonInstaller: OK, guest: OK, bot: messageUnseen, anotherDeveloper: OK, admin: messageUnseen, owner: OK,
};
const everyone: Row['expect'] = { ...v1Gate, otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, bot: OK, anotherDeveloper: OK, admin: OK, owner: OK };

/** With a session no app stands between the person and the method; no session, or a bot's token, is not signed in. */
const sessionOnly = (outcomes: Row['expect']): Row['expect'] => ({ ...outcomes, userDisabled: OK, teamDisabled: OK, ...sessionGate });

export const threadRows: Row[] = (['threads.follow', 'threads.unfollow', 'threads.markRead', 'threads.list'] as const).map((method) => ({
  route: `v1 ${method} with a session`,
  credential: 'session',
  request: (ids) => post(`/v1/${method}`, method === 'threads.list' ? {} : { messageUid: ids.message }),
  expect: sessionOnly(method === 'threads.list' ? everyone : membersOfP),
}));
