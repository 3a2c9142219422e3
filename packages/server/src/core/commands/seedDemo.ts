import { randomBytes, randomInt } from 'node:crypto';
import type { MessagesTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import { newChannelId, newMessageUid } from '../../store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../../store/rows/messages.js';
import { createApp, enableBot, recordInstall } from './apps.js';
import { createPerson, createTeam } from './people.js';
import { cliActor } from '../audit/record.js';
import { storeContext } from '../context.js';
import {
  demoAppName,
  demoBotGreeting,
  demoChannels,
  demoDirectChats,
  demoPeople,
  demoTeamName,
  type DemoChatSpec,
} from './seedDemoContent.js';

export interface DemoUserCredentials {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  /** The person's token for the demo app. */
  token: string;
}

export interface DemoCredentials {
  teamId: string;
  users: DemoUserCredentials[];
  channels: Array<{ id: string; name: string; type: 'public' | 'private'; members: string[] }>;
  app: { id: string; secret: string; botUserId: string; botToken: string };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const HISTORY_DAYS = 14;

type DraftMessage = Pick<MessagesTable, 'chat_key' | 'from_user_id' | 'to_id' | 'timestamp' | 'text' | 'app_id'>;

/**
 * Seeds the demo team: people with passwords, channels with a history spread over the past days, direct
 * chats, and the demo app installed by everyone with its bot enabled. Returns every credential in clear,
 * because the store keeps only hashes of passwords and tokens.
 */
export async function seedDemo(db: Db, now: number): Promise<DemoCredentials> {
  // The team predates its history, so that no message is older than its sender.
  const foundedAt = now - (HISTORY_DAYS + 1) * DAY;
  const ctx = storeContext(db, () => foundedAt);
  const team = await createTeam(ctx, cliActor, { name: demoTeamName });
  const users: DemoUserCredentials[] = [];
  for (const spec of demoPeople) {
    const password = randomBytes(9).toString('base64url');
    const row = await createPerson(ctx, cliActor, { teamId: team.id, ...spec, password });
    users.push({ id: row.id, email: row.email ?? spec.email, password, firstName: spec.firstName, lastName: spec.lastName, token: '' });
  }

  const app = await createApp(ctx, cliActor, { developer: { id: users[0].id, team_id: team.id }, name: demoAppName, description: 'A demo app: every demo person has installed it, and its bot is enabled.' });
  const bot = await enableBot(ctx, cliActor, { appId: app.id });
  for (const user of users) user.token = (await recordInstall(ctx, user, { appId: app.id })).token;

  const channels = demoChannels.map((spec) => ({
    id: newChannelId(),
    name: spec.name,
    type: spec.type,
    members: spec.people.map((index) => users[index].id),
  }));

  const drafts: DraftMessage[] = [
    ...demoChannels.flatMap((spec, i) =>
      spreadOverPastDays(spec, now).map(({ speaker, text, timestamp }) => ({
        chat_key: channels[i].id, from_user_id: channels[i].members[speaker], to_id: channels[i].id, timestamp, text, app_id: null,
      })),
    ),
    ...demoDirectChats.flatMap((spec) => {
      const pair = spec.people.map((index) => users[index].id);
      return spreadOverPastDays(spec, now).map(({ speaker, text, timestamp }) => ({
        chat_key: directChatKey(pair[0], pair[1]), from_user_id: pair[speaker], to_id: pair[1 - speaker], timestamp, text, app_id: null,
      }));
    }),
    ...users.map((user, i) => ({
      chat_key: directChatKey(bot.botUserId, user.id), from_user_id: bot.botUserId, to_id: user.id,
      timestamp: now - 30 * MINUTE + i * 1000, text: demoBotGreeting(user.firstName), app_id: app.id,
    })),
  ];

  await db.transaction().execute(async (tx) => {
    await insertChannels(tx, team.id, channels, foundedAt);
    await insertDemoMessages(tx, team.id, drafts);
  });

  return { teamId: team.id, users, channels, app: { id: app.id, secret: app.secret, botUserId: bot.botUserId, botToken: bot.botToken } };
}

/** Repeats the chat's exchanges until it has its message count, each exchange at a random moment of the past days. */
function spreadOverPastDays(spec: DemoChatSpec, now: number): Array<{ speaker: number; text: string; timestamp: number }> {
  const lines: Array<{ speaker: number; text: string; timestamp: number }> = [];
  for (let i = 0; lines.length < spec.messageCount; i++) {
    // An exchange lasts at most a few minutes per line, so starting an hour back keeps it in the past.
    let timestamp = now - randomInt(HOUR, HISTORY_DAYS * DAY);
    for (const [speaker, text] of spec.exchanges[i % spec.exchanges.length]) {
      if (lines.length === spec.messageCount) break;
      lines.push({ speaker, text, timestamp });
      timestamp += randomInt(MINUTE, 5 * MINUTE);
    }
  }
  return lines;
}

async function insertChannels(tx: Tx, teamId: string, channels: DemoCredentials['channels'], createdAt: number): Promise<void> {
  for (const [i, channel] of channels.entries()) {
    const spec = demoChannels[i];
    await tx
      .insertInto('channels')
      .values({
        id: channel.id, team_id: teamId, name: channel.name, purpose: spec.purpose, type: channel.type,
        profile_image: null, created_by: channel.members[0], created_at: createdAt,
      })
      .execute();
    await tx
      .insertInto('channel_members')
      .values(channel.members.map((userId, index) => ({
        channel_id: channel.id, user_id: userId, affiliation: index === 0 ? 'moderator' as const : 'member' as const, joined_at: createdAt,
      })))
      .execute();
  }
}

/** Uids are made in timestamp order, so that they ascend with time as every uid does. */
async function insertDemoMessages(tx: Tx, teamId: string, drafts: DraftMessage[]): Promise<void> {
  const rows = [...drafts]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((draft) => messageRow({ ...draft, uid: newMessageUid(draft.timestamp), team_id: teamId }));
  await insertMessages(tx, rows);
}
