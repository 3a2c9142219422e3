import { denied, get, OK, sessionGate, type Row } from './rows.js';
import { send } from './http.js';
import type { World } from './world.js';

/** One message per world (so per dialect): X's bot, in P, with an `html` attachment. */
const htmlMessages = new WeakMap<World, Promise<string>>();

function htmlMessageOf(baseUrl: string, w: World): Promise<string> {
  let uid = htmlMessages.get(w);
  if (!uid) {
    uid = send(baseUrl, 'POST', '/v1/chat.sendMessage', {
      bearer: w.actors.bot.token,
      json: { to: w.channel, onBehalfOf: w.owner.id, text: 'Report', attachments: [{ id: 'report', views: { html: { inline: '<p style="color: #123456">Report</p>' } } }] },
    }).then((sent) => {
      if (sent.status !== 200) throw new Error(`the html message was refused: ${JSON.stringify(sent.body)}`);
      return sent.body.uid as string;
    });
    htmlMessages.set(w, uid);
  }
  return uid;
}

const messageUnseen = denied('InvalidParameter', { parameter: 'messageUid' });

/**
 * An `html` attachment's own document (api/attachmentHtml.ts): for a session that may see the message,
 * by chat.fetchMessages' rules — every member of P, installed or not, the app enabled or not (it is only
 * shown) — and for no one else: outside P or another team, it is a message that does not exist.
 */
export const attachmentRows: Row[] = [
  {
    route: 'GET /attachments/:messageUid/:index/html',
    credential: 'session',
    prepare: async ({ t, w }) => ({ message: await htmlMessageOf(t.url, w) }),
    request: (ids) => get(`/attachments/${ids.message}/0/html`),
    expect: {
      ...sessionGate,
      otherTeam: messageUnseen, nonMember: messageUnseen, admin: messageUnseen,
      nonInstaller: OK, guest: OK, userDisabled: OK, teamDisabled: OK, anotherDeveloper: OK, owner: OK,
    },
    reveals: (body) => {
      if (typeof body !== 'string' || !body.includes('Report')) throw new Error(`not the attachment's document: ${String(body).slice(0, 200)}`);
    },
  },
];
