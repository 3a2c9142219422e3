import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { createChannel } from '../../../src/core/commands/channels.js';
import { uninstallApp } from '../../../src/core/commands/installs.js';
import type { AppsTable, UsersTable } from '../../../src/store/schema.js';
import type { TestServer } from '../../helpers/server.js';
import { sessionFor } from '../../client/harness.js';
import { send } from './http.js';
import { cliActor } from '../../../src/core/audit/record.js';

/**
 * The actor kinds of issue #9's authorization matrix, plus the legitimate actor (`owner`) as the positive
 * control and `nonInstaller` (a member who never installed the app: the widget-token hole of §1).
 */
export const actorKinds = [
  'none',
  'otherTeam',
  'nonMember',
  'nonInstaller',
  'guest',
  'bot',
  'revoked',
  'userDisabled',
  'teamDisabled',
  'anotherDeveloper',
  'admin',
  'owner',
] as const;

export type ActorKind = (typeof actorKinds)[number];

/** The actors whose person is a member of private channel P (the revoked one too, though nothing of theirs works). */
export const membersOfP: ReadonlySet<ActorKind> = new Set(['nonInstaller', 'guest', 'revoked', 'userDisabled', 'teamDisabled', 'anotherDeveloper', 'owner']);

/** What an actor presents: an app token for /v1, a session for /api; and the app that app routes aim at. */
export interface Actor {
  kind: ActorKind;
  user?: UsersTable;
  /** The method token (`Authorization: Bearer`) on /v1. */
  token?: string;
  /** The session token (`Authorization: Bearer`) on /api; the bot presents its bot token here. */
  session?: string;
  /** The app "concerned" when this actor calls an app route: X for all but teamDisabled (Y). */
  app: AppsTable;
  /** An app's secret, as its developer's tools hold it: the app concerned's (otherTeam: W's, of team B; none for `none`). */
  secret?: string;
}

/** The ids a request names; the cross-team test swaps them for made-up ones of the same shape. */
export interface Targets {
  app: string;
  channel: string;
  message: string;
  user: string;
  event: string;
  /** A member of P who is no actor: the one cells remove. */
  member: string;
  /** A teammate outside P who is no actor: the one cells add. */
  outsider: string;
}

export interface World {
  teamA: string;
  teamB: string;
  /** Team B's app, of which the otherTeam actor holds a token. */
  otherTeamApp: string;
  owner: UsersTable;
  bystander: UsersTable;
  outsider: UsersTable;
  /** Private channel P: owner moderates it; bystander, guest, nonInstaller, userDisabled, teamDisabled, anotherDeveloper are members. */
  channel: string;
  /** A message of X's (or Y's) bot in P, with a ServiceML action and an attachment with a widget view. */
  botMessageOf: Map<string, string>;
  /** An event of X (app.uninstall of the revoked actor). */
  eventOfX: string;
  /** P's members besides the owner, for fresh channels made like P. */
  memberIds: string[];
  /** A listener on loopback that answers 200 {} to everything: installs and sendEvent succeed. */
  listenerUrl: string;
  actors: Record<ActorKind, Actor>;
  close(): Promise<void>;
}

export const password = 'correct horse battery staple';

/** Server limits far above what the matrix sends (pass as config): its cells are about who may, not how often. */
const roomy = { rate: 1000, burst: 1000 };
export const roomyRateLimits = { message: roomy, messagePerRecipient: roomy, read: roomy, channel: roomy };

/** Integrations of X and Y: every URL on the widgets origin, so the origin is registered for their tokens. */
export const widgetsOrigin = 'https://widgets.example.test';
const integrations = {
  launcherButton: { name: 'Open', action: { type: 'openWidget', url: `${widgetsOrigin}/launch` } },
  messageAction: { name: 'Summarise', action: { type: 'sendEvent' } },
};
const botServiceml = `<serviceml>Chart ready <action id="open" type="openWidget" url="${widgetsOrigin}/open">Open</action></serviceml>`;
const chartAttachment = { id: 'chart', title: 'Chart', views: { widget: { src: `${widgetsOrigin}/chart`, width: 400, height: 300 } } };

/**
 * One team world per dialect, made once (see the actor table in authorizationMatrix.test.ts). Changes of
 * state that define actors (uninstall, disable, team-disable, sign-out) go through the HTTP API itself.
 */
export async function buildWorld(t: TestServer): Promise<World> {
  const { f } = t;
  const listener = await startAcceptingListener();
  const teamA = (await f.team('Team A')).id;
  const teamB = (await f.team('Team B')).id;
  const person = (name: string, teamId = teamA, role: UsersTable['role'] = 'user') =>
    f.person(teamId, { firstName: name, lastName: 'Matrix', password, role });
  const [owner, bystander, outsider, carol, frank, gina, rita, dan, tess, dave, adam, eve] = await Promise.all([
    person('Alice'), person('Bob'), person('Olga'), person('Carol'), person('Frank'), person('Gina', teamA, 'guest'), person('Rita'),
    person('Dan'), person('Tess'), person('Dave'), person('Adam', teamA, 'admin'), person('Eve', teamB),
  ]);
  const app = (developer: UsersTable, name: string) =>
    f.app(developer.team_id, developer.id, { name, listenerUrl: listener.url, integrations });
  const [appX, appY, appZ, appW] = [await app(owner, 'X'), await app(owner, 'Y'), await app(dave, 'Z'), await app(eve, 'W')];
  const tokenOf = async (appId: string, user: UsersTable) => (await f.install(appId, user.id)).token;

  const memberIds = [bystander.id, gina.id, frank.id, rita.id, dan.id, tess.id, dave.id];
  const { channel } = await createChannel(t.server.ctx, { user: owner, appId: null }, { name: 'p-private', members: memberIds });

  const tokens = {
    owner: await tokenOf(appX.id, owner), carol: await tokenOf(appX.id, carol), frank: await tokenOf(appZ.id, frank),
    gina: await tokenOf(appX.id, gina), rita: await tokenOf(appX.id, rita), dan: await tokenOf(appX.id, dan),
    tess: await tokenOf(appY.id, tess), dave: await tokenOf(appX.id, dave), adam: await tokenOf(appX.id, adam), eve: await tokenOf(appW.id, eve),
  };
  await tokenOf(appY.id, owner);
  let xBotToken = '';
  const botMessageOf = new Map<string, string>();
  for (const botApp of [appX, appY]) {
    const { botToken } = await f.bot(botApp.id);
    const sent = await send(t.url, 'POST', '/v1/chat.sendMessage', {
      bearer: botToken,
      json: { to: channel.id, onBehalfOf: owner.id, text: 'Chart ready', serviceml: botServiceml, attachments: [chartAttachment] },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    botMessageOf.set(botApp.id, sent.body.uid);
    if (botApp === appX) xBotToken = botToken;
  }

  const sessions = Object.fromEntries(
    await Promise.all(Object.entries({ owner, carol, frank, gina, rita, dan, tess, dave, adam, eve }).map(async ([name, user]) => [name, await signIn(t, user)])),
  ) as Record<string, string>;
  // The actors' defining changes, made as people make them.
  const act = async (session: string, method: string, path: string, json?: unknown) => {
    const answer = await send(t.url, method, path, { bearer: session, json });
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  };
  await act(sessions.rita, 'POST', '/v1/apps.uninstall', { appId: appX.id });
  await act(sessions.rita, 'DELETE', '/api/session');
  await act(sessions.dan, 'POST', '/v1/apps.disable', { appId: appX.id });
  await act(sessions.adam, 'POST', '/v1/apps.disableForTeam', { appId: appY.id });
  const event = await t.testStore.store.db.selectFrom('events').select('id').where('app_id', '=', appX.id).executeTakeFirstOrThrow();

  const actor = (kind: ActorKind, user: UsersTable | undefined, token?: string, session?: string, concerned = appX): Actor => ({
    kind, user, token, session, app: concerned, ...(kind === 'none' ? {} : { secret: concerned.secret }),
  });
  return {
    teamA,
    teamB,
    otherTeamApp: appW.id,
    owner,
    bystander,
    outsider,
    channel: channel.id,
    botMessageOf,
    eventOfX: event.id,
    memberIds,
    listenerUrl: listener.url,
    actors: {
      none: actor('none', undefined),
      otherTeam: { ...actor('otherTeam', eve, tokens.eve, sessions.eve), secret: appW.secret },
      nonMember: actor('nonMember', carol, tokens.carol, sessions.carol),
      nonInstaller: actor('nonInstaller', frank, tokens.frank, sessions.frank),
      guest: actor('guest', gina, tokens.gina, sessions.gina),
      bot: actor('bot', undefined, xBotToken, xBotToken),
      revoked: actor('revoked', rita, tokens.rita, sessions.rita),
      userDisabled: actor('userDisabled', dan, tokens.dan, sessions.dan),
      teamDisabled: actor('teamDisabled', tess, tokens.tess, sessions.tess, appY),
      anotherDeveloper: actor('anotherDeveloper', dave, tokens.dave, sessions.dave),
      admin: actor('admin', adam, tokens.adam, sessions.adam),
      owner: actor('owner', owner, tokens.owner, sessions.owner),
    },
    close: () => {
      listener.server.closeAllConnections();
      return new Promise<void>((resolve) => listener.server.close(() => resolve()));
    },
  };
}

/** The ids an actor's request names in the shared world. */
export function targetsOf(w: World, a: Actor): Targets {
  return { app: a.app.id, channel: w.channel, message: w.botMessageOf.get(a.app.id)!, user: w.owner.id, event: w.eventOfX, member: w.bystander.id, outsider: w.outsider.id };
}

/**
 * A new app of the owner's, standing to the actor as the actor's shared app does: installed by the actor
 * (unless `installed: false`, or the actor is the non-installer), disabled by them (userDisabled), or
 * disabled for the team (teamDisabled). For cells that change an app, so that cells stay independent.
 */
export async function freshApp(t: TestServer, w: World, a: Actor, options: { installed?: boolean; bot?: boolean; event?: boolean } = {}): Promise<string> {
  const { db } = t.testStore.store;
  const app = await t.f.app(w.teamA, w.owner.id, { listenerUrl: w.listenerUrl, integrations });
  if (options.bot) await t.f.bot(app.id);
  if (options.event) {
    // An asynchronous event of the app, made by the product's own uninstall.
    await t.f.install(app.id, w.owner.id);
    await uninstallApp(t.server.ctx, cliActor, { appId: app.id, userId: w.owner.id });
  }
  const user = a.user;
  if (user && user.team_id === w.teamA && options.installed !== false && a.kind !== 'nonInstaller') {
    await t.f.install(app.id, user.id);
    if (a.kind === 'userDisabled') await db.updateTable('installs').set({ disabled_by_user: 1 }).where('app_id', '=', app.id).where('user_id', '=', user.id).execute();
  }
  if (a.kind === 'teamDisabled') await db.updateTable('apps').set({ disabled_by_team: 1 }).where('id', '=', app.id).execute();
  return app.id;
}

/** A new private channel made like P (owner moderates, the same members), for cells that change members. */
export async function freshChannel(t: TestServer, w: World): Promise<string> {
  const { channel } = await createChannel(t.server.ctx, { user: w.owner, appId: null }, { name: 'p-fresh', members: w.memberIds });
  return channel.id;
}

/**
 * Another person of team B, with a token of team B's app and a session: an otherTeam actor of its own, so
 * that many requests by "another team" never meet a per-person rate limit.
 */
export async function freshOtherTeamActor(t: TestServer, w: World): Promise<Actor> {
  const user = await t.f.person(w.teamB, { firstName: 'Eve', lastName: 'Prober' });
  const { token } = await t.f.install(w.otherTeamApp, user.id);
  const { sessionToken } = await sessionFor(t, user);
  return { ...w.actors.otherTeam, user, token, session: sessionToken };
}

/** A new session of the actor's person (for sign-out cells); the actor's own credential for the others. */
export async function freshSession(t: TestServer, a: Actor): Promise<string | undefined> {
  if (!a.user || a.kind === 'revoked') return a.session;
  return signIn(t, a.user);
}

async function signIn(t: TestServer, user: UsersTable): Promise<string> {
  const answer = await send(t.url, 'POST', '/api/session', { json: { email: user.email, password } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.sessionToken;
}

async function startAcceptingListener(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, server };
}

/** One world for a whole suite: built before its first test, closed after its last; `w()` reads it. */
export function sharedWorld(t: () => TestServer): () => World {
  let world: World | undefined;
  beforeAll(async () => {
    world = await buildWorld(t());
  }, 60_000);
  afterAll(async () => world?.close());
  return () => {
    if (!world) throw new Error('the matrix world was not built');
    return world;
  };
}
