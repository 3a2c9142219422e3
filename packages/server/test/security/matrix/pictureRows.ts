import sharp from 'sharp';
import { expect } from 'vitest';
import { send } from './http.js';
import { denied, get, OK, post, sessionGate, type Row } from './rows.js';
import type { World } from './world.js';

/**
 * Profile pictures and the team icon (issue 25). Each cell uploads its own small PNG with the actor's
 * session and makes its picture of it: everyone signed in sets their own picture, only a team admin the
 * team's icon. The owner's picture (GET /pictures/:id) is seen by everyone of team A, token or session,
 * and by nobody else.
 */
const fileOf = new Map<string, string>();
/** A file id nobody has, for the cells that could not upload (no session) and the cross-team test's made-up ids. */
const NO_FILE = 'f:aaaaaaaaaaaaaaaa';
let cells = 0;
let pngBytes: Promise<Buffer> | undefined;
const png = () => (pngBytes ??= sharp({ create: { width: 48, height: 32, channels: 3, background: '#47a' } }).png().toBuffer());

const ownUpload: Row['prepare'] = async ({ t, a }) => {
  const key = `picture-upload-${(cells += 1)}`;
  if (a.session !== undefined) {
    const uploaded = await send(t.url, 'POST', '/v1/files.upload', { bearer: a.session, upload: { name: 'face.png', text: await png() } });
    if (uploaded.status === 200) fileOf.set(key, uploaded.body.file.id);
  }
  return { message: key };
};
const fileParam = (key: string) => ({ file: fileOf.get(key) ?? NO_FILE });

const refused = denied('PermissionDenied');
const signedIn: Row['expect'] = {
  ...sessionGate,
  otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, userDisabled: OK, teamDisabled: OK, anotherDeveloper: OK, admin: OK, owner: OK,
};
const adminsOnly: Row['expect'] = {
  ...sessionGate,
  otherTeam: refused, nonMember: refused, nonInstaller: refused, guest: refused, userDisabled: refused, teamDisabled: refused, anotherDeveloper: refused, owner: refused, admin: OK,
};

/** The owner's picture, made once per world (each dialect's). */
const ownersPicture = new WeakMap<World, Promise<string>>();
function pictureOf(baseUrl: string, w: World): Promise<string> {
  let made = ownersPicture.get(w);
  if (!made) {
    made = (async () => {
      const uploaded = await send(baseUrl, 'POST', '/v1/files.upload', { bearer: w.actors.owner.session, upload: { name: 'owner.png', text: await png() } });
      const set = await send(baseUrl, 'POST', '/v1/users.setProfileImage', { bearer: w.actors.owner.session, json: { file: uploaded.body.file.id } });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      return new URL(set.body.user.profileImage, baseUrl).pathname;
    })();
    ownersPicture.set(w, made);
  }
  return made;
}

export const pictureRows: Row[] = [
  { route: 'v1 users.setProfileImage with a session', credential: 'session', prepare: ownUpload, request: (ids) => post('/v1/users.setProfileImage', fileParam(ids.message)), expect: signedIn },
  { route: 'v1 users.removeProfileImage with a session', credential: 'session', request: () => post('/v1/users.removeProfileImage', {}), expect: signedIn },
  { route: 'v1 team.setIcon with a session', credential: 'session', prepare: ownUpload, request: (ids) => post('/v1/team.setIcon', fileParam(ids.message)), expect: adminsOnly },
  { route: 'v1 team.removeIcon with a session', credential: 'session', request: () => post('/v1/team.removeIcon', {}), expect: adminsOnly },
  {
    route: 'v1 admin.listApps with a session',
    credential: 'session',
    request: () => post('/v1/admin.listApps', {}),
    expect: adminsOnly,
    // The admin's own team only: team B's app W is not listed.
    reveals: (body, { w }) => expect(body.apps.map((app: { id: string }) => app.id)).not.toContain(w.otherTeamApp),
  },
  {
    route: 'GET /pictures/:id',
    credential: 'session',
    prepare: async ({ t, w }) => ({ message: await pictureOf(t.url, w) }),
    request: (ids) => get(ids.message.startsWith('/pictures/') ? ids.message : '/pictures/aaaaaaaaaaaaaaaaaaaaaaaaaa'),
    // The bot presents its bot token: a token of team A, which reads the team's pictures as it reads its people.
    expect: { ...signedIn, none: denied('NotSignedIn'), revoked: denied('NotSignedIn'), bot: OK, otherTeam: denied('UnknownFile', { parameter: 'id' }) },
  },
];
