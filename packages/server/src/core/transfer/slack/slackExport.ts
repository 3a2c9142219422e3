import { existsSync } from 'node:fs';
import { TransferRefusal } from '../refusal.js';
import { openSlackFiles, type SlackFiles } from './slackFiles.js';

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
  /** The IANA zone, such as Europe/Paris; tz_offset its offset when exported. */
  tz?: string;
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
  files?: SlackFile[];
}

/** A file shared on a message: Slack names it and links it (`url_private`); some tools put its bytes in the export too (slackUploads.ts). */
export interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
}

/** Which kind of conversation a folder holds, as Aviary stores it. */
export type ConversationKind = 'public' | 'private' | 'direct';

export interface SlackExport {
  files: SlackFiles;
  users: SlackUser[];
  conversations: Array<{ kind: ConversationKind; source: string; conversation: SlackConversation; folder: string }>;
}

function readJson<T>(files: SlackFiles, path: string, required: boolean): T[] {
  if (!files.has(path)) {
    if (required) throw new TransferRefusal('InvalidOption', `${files.describe(path)} is missing: --slack takes a Slack export (export.zip, or its unzipped folder: users.json, channels.json…).`);
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(files.readText(path));
  } catch (error) {
    throw new TransferRefusal('InvalidOption', `${files.describe(path)} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw new TransferRefusal('InvalidOption', `${files.describe(path)} must hold a JSON array.`);
  return value as T[];
}

/**
 * Reads the export's lists (users.json, channels.json; groups.json, mpims.json and dms.json when present)
 * from a folder or a zip; close its `files` when done.
 */
export function readSlackExport(path: string): SlackExport {
  if (!existsSync(path)) throw new TransferRefusal('InvalidOption', `${path} does not exist. --slack takes a Slack export: export.zip, or its unzipped folder.`);
  const files = openSlackFiles(path);
  try {
    return readLists(files);
  } catch (error) {
    files.close();
    throw error;
  }
}

function readLists(files: SlackFiles): SlackExport {
  const users = readJson<SlackUser>(files, 'users.json', true);
  const sources: Array<[string, ConversationKind, boolean]> = [
    ['channels.json', 'public', true],
    ['groups.json', 'private', false],
    ['mpims.json', 'private', false],
    ['dms.json', 'direct', false],
  ];
  const conversations = sources.flatMap(([file, kind, required]) =>
    readJson<SlackConversation>(files, file, required).map((conversation, index) => {
      if (typeof conversation?.id !== 'string') throw new TransferRefusal('InvalidOption', `${files.describe(file)}: entry ${index + 1} has no "id".`);
      const folder = kind === 'direct' ? conversation.id : (conversation.name ?? conversation.id);
      return { kind, source: file, conversation, folder };
    }),
  );
  for (const [index, user] of users.entries()) {
    if (typeof user?.id !== 'string') throw new TransferRefusal('InvalidOption', `${files.describe('users.json')}: entry ${index + 1} has no "id".`);
  }
  return { files, users, conversations };
}

/** A conversation's messages, a day file at a time (YYYY-MM-DD.json, in date order), each day in time order. */
export function* messagesOf(files: SlackFiles, folder: string): Generator<SlackMessage[]> {
  const days = files.list(folder).filter((name) => /^\d{4}-\d{2}-\d{2}\.json$/.test(name)).sort();
  for (const day of days) {
    const messages = readJson<SlackMessage>(files, `${folder}/${day}`, true).filter((message) => typeof message?.ts === 'string');
    messages.sort((a, b) => Number(a.ts) - Number(b.ts));
    yield messages;
  }
}

/** A Slack `ts` ("1700000000.000200": seconds, then a sequence) as epoch milliseconds. */
export const slackTime = (ts: string): number => Math.floor(Number(ts) * 1000);
