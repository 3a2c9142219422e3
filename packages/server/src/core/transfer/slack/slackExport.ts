import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TransferRefusal } from '../refusal.js';

/**
 * The parts of a Slack workspace export (its public JSON format) that the import reads. Slack writes
 * more fields than these; the others are ignored.
 */
export interface SlackUser {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_restricted?: boolean;
  tz_offset?: number;
  profile?: { email?: string; first_name?: string; last_name?: string; real_name?: string; display_name?: string };
}

export interface SlackConversation {
  id: string;
  /** Channels, private channels and group DMs have one (their folder's); a DM's folder is named by its id. */
  name?: string;
  created?: number;
  creator?: string;
  members?: string[];
  purpose?: { value?: string };
  topic?: { value?: string };
}

export interface SlackMessage {
  type?: string;
  subtype?: string;
  ts: string;
  user?: string;
  text?: string;
  thread_ts?: string;
  edited?: { user?: string; ts?: string };
  reactions?: Array<{ name: string; users?: string[]; count?: number }>;
  files?: Array<{ name?: string; title?: string }>;
}

/** Which kind of conversation a folder holds, as Aviary stores it. */
export type ConversationKind = 'public' | 'private' | 'direct';

export interface SlackExport {
  dir: string;
  users: SlackUser[];
  conversations: Array<{ kind: ConversationKind; source: string; conversation: SlackConversation; folder: string }>;
}

function readJson<T>(path: string, required: boolean): T[] {
  if (!existsSync(path)) {
    if (required) throw new TransferRefusal('InvalidOption', `${path} is missing: --slack takes the folder of an unzipped Slack export (users.json, channels.json…).`);
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new TransferRefusal('InvalidOption', `${path} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw new TransferRefusal('InvalidOption', `${path} must hold a JSON array.`);
  return value as T[];
}

/** Reads the export's lists (users.json, channels.json; groups.json, mpims.json and dms.json when present). */
export function readSlackExport(dir: string): SlackExport {
  if (!existsSync(dir)) throw new TransferRefusal('InvalidOption', `${dir} does not exist. --slack takes an unzipped Slack export's folder (unzip export.zip -d DIR).`);
  const users = readJson<SlackUser>(join(dir, 'users.json'), true);
  const sources: Array<[string, ConversationKind, boolean]> = [
    ['channels.json', 'public', true],
    ['groups.json', 'private', false],
    ['mpims.json', 'private', false],
    ['dms.json', 'direct', false],
  ];
  const conversations = sources.flatMap(([file, kind, required]) =>
    readJson<SlackConversation>(join(dir, file), required).map((conversation, index) => {
      if (typeof conversation?.id !== 'string') throw new TransferRefusal('InvalidOption', `${join(dir, file)}: entry ${index + 1} has no "id".`);
      const folder = join(dir, kind === 'direct' ? conversation.id : (conversation.name ?? conversation.id));
      return { kind, source: file, conversation, folder };
    }),
  );
  for (const [index, user] of users.entries()) {
    if (typeof user?.id !== 'string') throw new TransferRefusal('InvalidOption', `${join(dir, 'users.json')}: entry ${index + 1} has no "id".`);
  }
  return { dir, users, conversations };
}

/** A conversation's messages, a day file at a time (YYYY-MM-DD.json, in date order), each day in time order. */
export function* messagesOf(folder: string): Generator<{ file: string; messages: SlackMessage[] }> {
  if (!existsSync(folder)) return;
  const days = readdirSync(folder).filter((name) => /^\d{4}-\d{2}-\d{2}\.json$/.test(name)).sort();
  for (const day of days) {
    const messages = readJson<SlackMessage>(join(folder, day), true).filter((message) => typeof message?.ts === 'string');
    messages.sort((a, b) => Number(a.ts) - Number(b.ts));
    yield { file: join(folder, day), messages };
  }
}

/** A Slack `ts` ("1700000000.000200": seconds, then a sequence) as epoch milliseconds. */
export const slackTime = (ts: string): number => Math.floor(Number(ts) * 1000);
