import { expect } from 'vitest';
import { denied, OK, post, sessionGate, type Outcome, type Row } from './rows.js';
import { freshApp, membersOfP as inP, widgetsOrigin } from './world.js';

/**
 * Every /v1 method only a person calls × every actor, each presenting its session. The app concerned is X (Y, disabled
 * for the team, for teamDisabled); X's launcher button and its bot's message in P open widgets, so those
 * cells are where widget tokens are minted (issue #9 §1): only for a person who installed the app, has not
 * disabled it, and sees the chat or message. Install and disable cells act on a fresh app each.
 */
const signedIn: Row['expect'] = {
  ...sessionGate,
  otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, userDisabled: OK, teamDisabled: OK, anotherDeveloper: OK, admin: OK, owner: OK,
};

/** The same outcome for every signed-in actor. */
function everySignedIn(outcome: Outcome): Row['expect'] {
  return { ...sessionGate, ...Object.fromEntries(Object.keys(signedIn).filter((kind) => !(kind in sessionGate)).map((kind) => [kind, outcome])) } as Row['expect'];
}

function membersOfP(refusal: Outcome): Row['expect'] {
  return { ...signedIn, otherTeam: refusal, nonMember: refusal, admin: refusal };
}

const userDisabled = denied('AppDisabled', { disabledBy: 'user' });
const teamDisabled = denied('AppDisabled', { disabledBy: 'team' });
const noSuchAppHere = denied('InvalidParameter', { parameter: 'appId' });
const chatUnseen = denied('UnknownChat', { parameter: 'chat' });
const messageUnseen = denied('InvalidParameter', { parameter: 'messageUid' });

/** An action named by app and chat: the app must be in the team, installed and enabled; the chat readable. */
const appInChat = (notInstalled: Outcome): Row['expect'] => ({
  ...signedIn,
  otherTeam: noSuchAppHere, nonMember: chatUnseen, nonInstaller: notInstalled, userDisabled, teamDisabled, admin: chatUnseen,
});

/** An action named by a message: the message must be visible, its app installed and enabled. */
const onVisibleMessage: Row['expect'] = {
  ...signedIn,
  otherTeam: messageUnseen, nonMember: messageUnseen, nonInstaller: denied('NotInstalled'), userDisabled, teamDisabled, admin: messageUnseen,
};

/** The person's own install of an app of their team; another team's app does not exist for them. */
const ownInstall: Row['expect'] = { ...signedIn, otherTeam: denied('UnknownApp'), nonInstaller: denied('NotInstalled') };
const teamAdminsOnly: Row['expect'] = {
  ...sessionGate,
  otherTeam: denied('UnknownApp'), nonMember: denied('PermissionDenied'), nonInstaller: denied('PermissionDenied'), guest: denied('PermissionDenied'),
  userDisabled: denied('PermissionDenied'), teamDisabled: denied('PermissionDenied'), anotherDeveloper: denied('PermissionDenied'), admin: OK,
  owner: denied('PermissionDenied'),
};

const channelUnseen = denied('UnknownChannel', { parameter: 'channelId' });

const installedFresh: Row['prepare'] = async ({ t, w, a }) => ({ app: await freshApp(t, w, a) });

export const sessionOnlyRows: Row[] = [
  {
    route: 'v1 chat.listConversations with a session',
    credential: 'session',
    request: () => post('/v1/chat.listConversations', {}),
    expect: signedIn,
    reveals: (body, { a, w }) => expect(body.conversations.some((conversation: { chat: string }) => conversation.chat === w.channel)).toBe(inP.has(a.kind)),
  },
  {
    route: 'v1 chat.markRead with a session',
    credential: 'session',
    request: (ids) => post('/v1/chat.markRead', { chat: ids.channel, uid: ids.message }),
    expect: membersOfP(chatUnseen),
  },
  {
    route: 'v1 chat.markUnread with a session',
    credential: 'session',
    request: (ids) => post('/v1/chat.markUnread', { chat: ids.channel, uid: ids.message }),
    expect: membersOfP(chatUnseen),
  },
  // A ticket opens the stream as the person who asked: nothing of anyone else's.
  { route: 'v1 stream.createTicket with a session', credential: 'session', request: () => post('/v1/stream.createTicket', {}), expect: signedIn },
  // Typing reaches the chat's readers: only a reader may say they type in it.
  { route: 'v1 chat.signalTyping with a session', credential: 'session', request: (ids) => post('/v1/chat.signalTyping', { chat: ids.channel }), expect: membersOfP(chatUnseen) },
  {
    route: 'v1 chat.sendFromComposer with a session',
    credential: 'session',
    request: (ids) => post('/v1/chat.sendFromComposer', { to: ids.channel, text: 'matrix' }),
    expect: membersOfP(denied('UnknownRecipient', { parameter: 'to' })),
  },
  {
    route: 'v1 interactions.pressButton with a session',
    credential: 'session',
    request: (ids) => post('/v1/interactions.pressButton', { appId: ids.app, button: 'appLauncherButton', chat: ids.channel }),
    expect: appInChat(noSuchAppHere),
  },
  {
    route: 'v1 interactions.runMessageAction with a session',
    credential: 'session',
    request: (ids) => post('/v1/interactions.runMessageAction', { appId: ids.app, chat: ids.channel, messageUids: [ids.message] }),
    expect: appInChat(noSuchAppHere),
  },
  {
    route: 'v1 interactions.runWidgetAction with a session',
    credential: 'session',
    request: (ids) => post('/v1/interactions.runWidgetAction', { appId: ids.app, kind: 'openWidget', url: `${widgetsOrigin}/next`, chat: ids.channel }),
    expect: appInChat(denied('NotInstalled')),
  },
  {
    route: 'v1 interactions.runServicemlAction with a session',
    credential: 'session',
    request: (ids) => post('/v1/interactions.runServicemlAction', { messageUid: ids.message, actionId: 'open' }),
    expect: onVisibleMessage,
  },
  {
    route: 'v1 interactions.openAttachmentWidget with a session',
    credential: 'session',
    request: (ids) => post('/v1/interactions.openAttachmentWidget', { messageUid: ids.message, attachmentId: 'chart' }),
    expect: onVisibleMessage,
  },
  {
    route: 'v1 apps.listDirectory with a session',
    credential: 'session',
    request: () => post('/v1/apps.listDirectory', {}),
    expect: signedIn,
    // The apps of the person's own team, and nothing of where their events go or how they are signed.
    reveals: (body, { a, w }) => {
      expect(body.apps.some((app: { id: string }) => app.id === w.actors.owner.app.id)).toBe(a.kind !== 'otherTeam');
      expect(JSON.stringify(body)).not.toMatch(/secret|listenerUrl|127\.0\.0\.1/i);
    },
  },
  {
    route: 'v1 apps.install with a session',
    credential: 'session',
    prepare: async ({ t, w, a }) => ({ app: await freshApp(t, w, a, { installed: false }) }),
    request: (ids) => post('/v1/apps.install', { appId: ids.app }),
    // A team-disabled app's token could only answer AppDisabled: it is not installed at all.
    expect: { ...signedIn, otherTeam: denied('UnknownApp'), teamDisabled },
  },
  { route: 'v1 apps.uninstall with a session', credential: 'session', prepare: installedFresh, request: (ids) => post('/v1/apps.uninstall', { appId: ids.app }), expect: ownInstall },
  { route: 'v1 apps.disable with a session', credential: 'session', prepare: installedFresh, request: (ids) => post('/v1/apps.disable', { appId: ids.app }), expect: ownInstall },
  { route: 'v1 apps.enable with a session', credential: 'session', prepare: installedFresh, request: (ids) => post('/v1/apps.enable', { appId: ids.app }), expect: ownInstall },
  {
    route: 'v1 apps.disableForTeam with a session',
    credential: 'session',
    prepare: installedFresh,
    request: (ids) => post('/v1/apps.disableForTeam', { appId: ids.app }),
    expect: teamAdminsOnly,
  },
  {
    route: 'v1 apps.enableForTeam with a session',
    credential: 'session',
    prepare: installedFresh,
    request: (ids) => post('/v1/apps.enableForTeam', { appId: ids.app }),
    expect: teamAdminsOnly,
  },
  // The team's settings (who may create apps): everyone reads their own team's, only its admins change them.
  { route: 'v1 team.getInfo with a session', credential: 'session', request: () => post('/v1/team.getInfo', {}), expect: signedIn },
  {
    route: 'v1 team.updateSettings with a session',
    credential: 'session',
    // The default value: the cell that succeeds changes nothing the other cells see.
    request: () => post('/v1/team.updateSettings', { appCreators: 'members' }),
    expect: { ...teamAdminsOnly, otherTeam: denied('PermissionDenied') },
  },
  { route: 'v1 users.updateProfile with a session', credential: 'session', request: () => post('/v1/users.updateProfile', {}), expect: signedIn },
  // A person's own account: no actor reaches another's. The password change fails on the current
  // password (the actors have none), so no cell ends the sessions the others use.
  {
    route: 'v1 users.changePassword with a session',
    credential: 'session',
    request: () => post('/v1/users.changePassword', { currentPassword: 'not the password', newPassword: 'a new passphrase of mine' }),
    expect: everySignedIn(denied('InvalidParameter', { parameter: 'currentPassword' })),
  },
  {
    route: 'v1 sessions.list with a session',
    credential: 'session',
    request: () => post('/v1/sessions.list', {}),
    expect: signedIn,
    reveals: (body) => expect(body.sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1),
  },
  {
    route: 'v1 sessions.revoke with a session',
    credential: 'session',
    request: () => post('/v1/sessions.revoke', { sessionId: '0123456789abcdef' }),
    expect: everySignedIn(denied('InvalidParameter', { parameter: 'sessionId' })),
  },
  // A person's own personal tokens: no actor reaches another's.
  { route: 'v1 personalTokens.create with a session', credential: 'session', request: () => post('/v1/personalTokens.create', { name: 'matrix script' }), expect: signedIn },
  { route: 'v1 personalTokens.list with a session', credential: 'session', request: () => post('/v1/personalTokens.list', {}), expect: signedIn },
  {
    route: 'v1 personalTokens.revoke with a session',
    credential: 'session',
    request: () => post('/v1/personalTokens.revoke', { tokenId: 'pt_not_one_of_yours' }),
    expect: everySignedIn(denied('InvalidParameter', { parameter: 'tokenId' })),
  },
  { route: 'v1 channels.listPublic with a session', credential: 'session', request: () => post('/v1/channels.listPublic', {}), expect: signedIn },
  { route: 'v1 channels.join with a session', credential: 'session', request: (ids) => post('/v1/channels.join', { channelId: ids.channel }), expect: membersOfP(channelUnseen) },
  {
    // P's members say what it is about, guests excepted; a team admin, signed in, in any channel of the team.
    route: 'v1 channels.setPurpose with a session',
    credential: 'session',
    request: (ids) => post('/v1/channels.setPurpose', { channelId: ids.channel, purpose: 'What P is about' }),
    expect: { ...signedIn, otherTeam: channelUnseen, nonMember: channelUnseen, guest: denied('PermissionDenied', { parameter: 'channelId' }) },
  },
];
