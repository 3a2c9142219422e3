import { denied, everyone, get, OK, post, sessionGate, type Row } from './rows.js';

/**
 * How a team signs in × every actor (issue 25): the sign-in page's choices are anyone's to read; a
 * team's settings only its admins read and change, and only their own team's (the team comes from the
 * session, never from a parameter).
 */
const refused = denied('PermissionDenied');
const teamAdminsOnly: Row['expect'] = {
  ...sessionGate,
  otherTeam: refused, nonMember: refused, nonInstaller: refused, guest: refused, userDisabled: refused, teamDisabled: refused,
  anotherDeveloper: refused, owner: refused, admin: OK,
};

const wrongPassword = denied('InvalidParameter', { parameter: 'password' });

export const signInRows: Row[] = [
  // One's own account only: the actors have no password, so no cell deactivates one the others use.
  {
    route: 'v1 users.deactivateAccount with a session',
    credential: 'session',
    request: () => post('/v1/users.deactivateAccount', { password: 'not the password' }),
    expect: {
      ...sessionGate,
      otherTeam: wrongPassword, nonMember: wrongPassword, nonInstaller: wrongPassword, guest: wrongPassword, userDisabled: wrongPassword,
      teamDisabled: wrongPassword, anotherDeveloper: wrongPassword, owner: wrongPassword, admin: wrongPassword,
    },
  },
  { route: 'GET /api/session/methods', credential: 'session', request: () => get('/api/session/methods'), expect: everyone(OK) },
  // Browser navigations, followed to where they land: without a provider the start, and any callback
  // that no attempt of this browser began, land on the sign-in page (200) with a refusal it explains,
  // whatever credential comes along.
  { route: 'GET /api/sso/start', credential: 'session', request: () => get('/api/sso/start'), expect: everyone(OK) },
  { route: 'GET /api/sso/callback', credential: 'session', request: () => get('/api/sso/callback', { state: 'forged', code: 'forged' }), expect: everyone(OK) },
  { route: 'v1 team.getSignInSettings with a session', credential: 'session', request: () => post('/v1/team.getSignInSettings', {}), expect: teamAdminsOnly },
  {
    route: 'v1 team.updateSignInSettings with a session',
    credential: 'session',
    // The default: the cell that succeeds changes nothing the other cells see.
    request: () => post('/v1/team.updateSignInSettings', { passwordEnabled: true }),
    expect: teamAdminsOnly,
  },
];
