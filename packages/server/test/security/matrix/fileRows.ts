import { expect } from 'vitest';
import { send } from './http.js';
import { denied, get, OK, post, v1Gate, type Row } from './rows.js';
import { membersOfP as inP, type ActorKind, type World } from './world.js';

/**
 * Files (issue 24). The target is a fresh file the owner uploaded with their token of X and sent in P:
 * members of P see it (files.getInfo, GET /files/:id); only the owner deletes it (the members who see
 * it get PermissionDenied); everyone else learns nothing of it. Anyone signed in may upload to their own team.
 */
const fileOf = new Map<string, string>();
/** A file id nobody has: the cross-team test's made-up message uid maps to it. */
const NO_FILE = 'f:aaaaaaaaaaaaaaaa';

async function ownersFileMessage(baseUrl: string, w: World): Promise<{ message: string }> {
  const uploaded = await send(baseUrl, 'POST', '/v1/files.upload', { bearer: w.actors.owner.token, upload: { name: 'plan.txt', text: 'the plan' } });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const sent = await send(baseUrl, 'POST', '/v1/chat.sendMessage', { bearer: w.actors.owner.token, json: { to: w.channel, text: 'the plan', files: [uploaded.body.file.id] } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  fileOf.set(sent.body.uid, uploaded.body.file.id);
  return { message: sent.body.uid };
}

const prepare: Row['prepare'] = ({ t, w }) => ownersFileMessage(t.url, w);

/** A fresh resumable upload of the owner's (token of X) of 5 bytes, with `sent` of them sent: the cell's target. */
const ownersUpload =
  (sent: string): Row['prepare'] =>
  async ({ t, w }) => {
    const started = await send(t.url, 'POST', '/v1/files.startUpload', { bearer: w.actors.owner.token, json: { name: 'plan.txt', size: 5 } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const uploadId: string = started.body.upload.uploadId;
    if (sent.length > 0) {
      const part = await send(t.url, 'POST', `/v1/files.uploadPart?uploadId=${uploadId}&offset=0`, { bearer: w.actors.owner.token, raw: sent });
      expect(part.status, JSON.stringify(part.body)).toBe(200);
    }
    return { message: uploadId };
  };
const fileParam = (message: string) => ({ file: fileOf.get(message) ?? NO_FILE });

const unseen = denied('UnknownFile', { parameter: 'file' });
const notTheirs = denied('PermissionDenied', { parameter: 'file' });

const readersOfP = (refusal: ReturnType<typeof denied>): Row['expect'] => ({
  ...v1Gate,
  otherTeam: refusal, nonMember: refusal, nonInstaller: OK, guest: OK, bot: refusal, anotherDeveloper: OK, admin: refusal, owner: OK,
});

const deletes: Row['expect'] = {
  ...v1Gate,
  otherTeam: unseen, nonMember: unseen, nonInstaller: notTheirs, guest: notTheirs, bot: unseen, anotherDeveloper: notTheirs, admin: unseen, owner: OK,
};

const uploads: Row['expect'] = {
  ...v1Gate,
  otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, bot: OK, anotherDeveloper: OK, admin: OK, owner: OK,
};

/** With a session no app stands between the person and the method: an app disabled changes nothing. */
const withSession = (outcomes: Row['expect']): Row['expect'] => ({ ...outcomes, revoked: denied('NotSignedIn'), userDisabled: outcomes.nonInstaller, teamDisabled: outcomes.nonInstaller });

const methodRows = (method: string, expect: Row['expect'], request: Row['request'], needs: boolean | Row['prepare'], reveals?: Row['reveals']): Row[] => {
  const prepared = needs === true ? { prepare } : needs ? { prepare: needs } : {};
  return [
    { route: `v1 ${method}`, credential: 'token', ...prepared, request, expect, ...(reveals ? { reveals } : {}) },
    { route: `v1 ${method} with a session`, credential: 'session', ...prepared, request, expect: withSession(expect), ...(reveals ? { reveals } : {}) },
  ];
};

/** An upload is its uploader's alone (a token: through the same app; the owner's session is the owner). */
const unknownUpload = denied('UnknownFile', { parameter: 'uploadId' });
const uploaders: Row['expect'] = {
  ...v1Gate,
  otherTeam: unknownUpload, nonMember: unknownUpload, nonInstaller: unknownUpload, guest: unknownUpload, bot: unknownUpload, anotherDeveloper: unknownUpload, admin: unknownUpload, owner: OK,
};
const partRequest: Row['request'] = (ids) => ({ method: 'POST', path: `/v1/files.uploadPart?uploadId=${ids.message}&offset=0`, raw: 'hello' });

const uploadRequest: Row['request'] = () => ({ method: 'POST', path: '/v1/files.upload', upload: { name: 'matrix.txt', text: 'matrix' } });

const signedOut: Partial<Record<ActorKind, ReturnType<typeof denied>>> = { none: denied('NotSignedIn'), revoked: denied('NotSignedIn') };

export const fileRows: Row[] = [
  ...methodRows('files.upload', uploads, uploadRequest, false),
  ...methodRows('files.getInfo', readersOfP(unseen), (ids) => post('/v1/files.getInfo', fileParam(ids.message)), true),
  ...methodRows('files.delete', deletes, (ids) => post('/v1/files.delete', fileParam(ids.message)), true),
  // Anyone may search; what they find of P (private) is for its members only (bots are members of nothing).
  ...methodRows('search.files', uploads, () => post('/v1/search.files', { query: 'plan' }), true, (found, { a, w }) =>
    expect(found.matches.some((match: { chat: string }) => match.chat === w.channel)).toBe(inP.has(a.kind) && a.kind !== 'bot'),
  ),
  ...methodRows('files.startUpload', uploads, () => post('/v1/files.startUpload', { name: 'matrix.txt', size: 6 }), false),
  ...methodRows('files.getUpload', uploaders, (ids) => post('/v1/files.getUpload', { uploadId: ids.message }), ownersUpload('')),
  ...methodRows('files.uploadPart', uploaders, partRequest, ownersUpload('')),
  ...methodRows('files.finishUpload', uploaders, (ids) => post('/v1/files.finishUpload', { uploadId: ids.message }), ownersUpload('plan!')),
  // The part's own route (it streams the body): the same outcomes as its row with a token.
  { route: 'POST /v1/files.uploadPart', credential: 'token', prepare: ownersUpload(''), request: partRequest, expect: uploaders },
  ...methodRows('files.list', readersOfP(denied('UnknownChat', { parameter: 'chat' })), (ids) => post('/v1/files.list', { chat: ids.channel }), false),
  // The method's own route (it streams the multipart body): the same outcomes as its row with a token.
  { route: 'POST /v1/files.upload', credential: 'token', request: uploadRequest, expect: uploads },
  {
    route: 'GET /files/:id',
    credential: 'session',
    prepare,
    request: (ids) => get(`/files/${fileParam(ids.message).file}`),
    expect: { ...withSession(readersOfP(denied('UnknownFile', { parameter: 'id' }))), ...signedOut },
    reveals: (body) => {
      if (body !== 'the plan') throw new Error(`not the file's bytes: ${String(body).slice(0, 200)}`);
    },
  },
];
