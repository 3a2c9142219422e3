import { denied, OK, post, sessionGate, v1Gate, type Row } from './rows.js';

/**
 * Pins and saved items (issue 23). The target is P's bot message: members of P may pin it and save it;
 * the others (another team, a teammate outside P, the admin who is not in P, the bot, which is not a
 * member of P) learn nothing of it. pins.* take a token or a session; saved.* only a session.
 */
const messageUnseen = denied('InvalidParameter', { parameter: 'messageUid' });
const chatUnknown = denied('UnknownChat', { parameter: 'chat' });

const membersOfP = (refusal: ReturnType<typeof denied>): Row['expect'] => ({
  ...v1Gate,
  otherTeam: refusal, nonMember: refusal, nonInstaller: OK, guest: OK, bot: refusal, anotherDeveloper: OK, admin: refusal, owner: OK,
});

/** With a session no app stands between the person and the method: an app disabled changes nothing. */
const withSession = (outcomes: Row['expect']): Row['expect'] => ({ ...outcomes, revoked: denied('NotSignedIn'), userDisabled: OK, teamDisabled: OK });
/** A method only a session calls: no session, or a bot's token in its place, is not signed in. */
const sessionOnly = (outcomes: Row['expect']): Row['expect'] => ({ ...withSession(outcomes), ...sessionGate });

const pinRequest = (method: string) => (ids: { message: string; channel: string }) =>
  post(`/v1/${method}`, method === 'pins.list' ? { chat: ids.channel } : { messageUid: ids.message });

const pinsRows: Row[] = (['pins.add', 'pins.remove', 'pins.list'] as const).flatMap((method) => {
  const outcomes = membersOfP(method === 'pins.list' ? chatUnknown : messageUnseen);
  return [
    { route: `v1 ${method}`, credential: 'token', request: pinRequest(method), expect: outcomes },
    { route: `v1 ${method} with a session`, credential: 'session', request: pinRequest(method), expect: withSession(outcomes) },
  ] satisfies Row[];
});

const savedRows: Row[] = (['saved.add', 'saved.remove', 'saved.list'] as const).map((method) => ({
  route: `v1 ${method} with a session`,
  credential: 'session',
  request: (ids) => post(`/v1/${method}`, method === 'saved.list' ? {} : { messageUid: ids.message }),
  // saved.list answers everyone signed in with their own items.
  expect: sessionOnly(method === 'saved.list' ? { ...v1Gate, otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, bot: OK, anotherDeveloper: OK, admin: OK, owner: OK } : membersOfP(messageUnseen)),
}));

export const pinRows: Row[] = [...pinsRows, ...savedRows];
