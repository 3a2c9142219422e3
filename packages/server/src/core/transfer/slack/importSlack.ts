import { newChannelId, newMessageUid } from '../../../store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../../../store/rows/messages.js';
import { drainSearchQueue } from '../../search/searchQueue.js';
import type { MessageFilesTable, MessagesTable, ReactionsTable } from '../../../store/schema.js';
import type { Db, Tx } from '../../../store/store.js';
import { insertTeam } from '../../commands/internal/teamRows.js';
import { TransferRefusal } from '../refusal.js';
import { convertMrkdwn, type MrkdwnContext } from './mrkdwn.js';
import { messagesOf, readSlackExport, slackTime, type SlackExport, type SlackMessage } from './slackExport.js';
import { SlackThreads } from './slackThreads.js';
import { slackEmoji } from './slackEmoji.js';
import { mapSlackPeople, type MappedPerson, type PeopleSummary } from './slackPeople.js';
import { slackFilePath, storeSlackFiles, type SlackFileTarget } from './slackUploads.js';

/** Subtypes that are a person's message; every other one (joins, topic changes, pins…) is skipped. */
const MESSAGE_SUBTYPES = new Set(['me_message', 'thread_broadcast', 'file_share', 'bot_message']);

export interface SlackImportSummary {
  teamId: string;
  createdTeam: boolean;
  people: PeopleSummary;
  channels: number;
  directChats: number;
  messages: number;
  /** Replies in threads, imported as messages of their channel in time order (Aviary has no threads yet). */
  threadReplies: number;
  /** Messages with an `edited` mark, imported with their edit time. */
  edited: number;
  /** Shared files whose bytes the export holds, stored as Aviary files on their messages. */
  filesImported: number;
  /** Shared files the export only links to (or that were refused: too large, or not the type their name says), each named on a line of its message's text. */
  filesNamed: number;
  /** Reactions imported: one per person and emoji. */
  reactions: number;
  /** Reactions not imported: a team's custom emoji, or by someone not in users.json. */
  reactionsSkipped: number;
  /** Messages not imported: by subtype, from a sender not in users.json, with nothing to show, in a DM without two known people. */
  skipped: { subtypes: Record<string, number>; unknownSender: number; empty: number; unknownConversation: number };
}

export interface SlackImportOptions {
  /** The team to import into; without it, a new team of this name. */
  teamId?: string;
  teamName: string;
  /** Where the files found in the export are stored. */
  files: SlackFileTarget;
  now: number;
}

/** Reads a Slack workspace export (its zip, or the unzipped folder) into a team, in one transaction: all of it, or nothing. */
export async function importSlack(db: Db, dir: string, options: SlackImportOptions): Promise<SlackImportSummary> {
  const slack = readSlackExport(dir);
  const stored: string[] = [];
  let summary: SlackImportSummary;
  try {
    summary = await importLists(db, slack, options, stored);
  } catch (error) {
    // Nothing was committed: the bytes stored on the way go too.
    for (const key of stored) await options.files.storage.delete(key).catch(() => undefined);
    throw error;
  } finally {
    slack.files.close();
  }
  // The messages' search index now, not on the server's first drain (core/search/searchQueue.ts).
  await drainSearchQueue(db);
  return summary;
}

async function importLists(db: Db, slack: SlackExport, options: SlackImportOptions, stored: string[]): Promise<SlackImportSummary> {
  return db.transaction().execute(async (tx) => {
    const teamId = options.teamId ?? (await insertTeam(tx, { name: options.teamName, now: options.now })).id;
    if (options.teamId && !(await tx.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst())) {
      throw new TransferRefusal('UnknownTeam', `There is no team "${teamId}".`);
    }
    const { people, summary: peopleSummary } = await mapSlackPeople(tx, teamId, slack.users, options.now);
    const summary: SlackImportSummary = {
      teamId, createdTeam: options.teamId === undefined, people: peopleSummary, channels: 0, directChats: 0, messages: 0,
      threadReplies: 0, edited: 0, filesImported: 0, filesNamed: 0, reactions: 0, reactionsSkipped: 0, skipped: { subtypes: {}, unknownSender: 0, empty: 0, unknownConversation: 0 },
    };
    const channelNames = new Map(slack.conversations.map(({ conversation }) => [conversation.id, conversation.name ?? conversation.id]));
    const context: MrkdwnContext = { person: (id) => people.get(id), channelName: (id) => channelNames.get(id) };
    for (const entry of slack.conversations) {
      const chat = await createConversation(tx, teamId, entry, people, options.now, summary);
      const writer = new MessageBatch(tx);
      const threads = new SlackThreads();
      const files: MessageFiles = { tx, slack, folder: entry.folder, target: options.files, stored };
      for (const messages of messagesOf(slack.files, entry.folder)) {
        for (const message of messages) {
          const made = chat ? await messageFrom(message, chat, teamId, people, context, summary, files) : undefined;
          if (!chat) summary.skipped.unknownConversation++;
          if (made && threads.place(message, made.row)) summary.threadReplies++;
          if (made) await writer.add(made.row, reactionsOf(message, made.row, people, summary), made.links);
        }
      }
      summary.messages += await writer.flush();
      await threads.write(tx);
    }
    return summary;
  });
}

interface Chat {
  chatKey: string;
  /** A channel's id; in a direct chat, the other person of the pair. */
  toOf(senderId: string): string | undefined;
}

async function createConversation(tx: Tx, teamId: string, entry: SlackExport['conversations'][number], people: Map<string, MappedPerson>, now: number, summary: SlackImportSummary): Promise<Chat | undefined> {
  const { conversation, kind } = entry;
  const members = [...new Set((conversation.members ?? []).map((id) => people.get(id)?.id).filter((id): id is string => id !== undefined))];
  if (kind === 'direct') {
    if (members.length !== 2) return undefined;
    summary.directChats++;
    return { chatKey: directChatKey(members[0], members[1]), toOf: (sender) => members.find((member) => member !== sender) };
  }
  const name = conversation.name ?? conversation.id;
  const taken = await tx.selectFrom('channels').select('id').where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();
  if (taken) throw new TransferRefusal('ImportConflict', `The team already has a channel "${name}" (${taken.id}); nothing was imported. Import a Slack export into a team without its channels.`);
  const creator = people.get(conversation.creator ?? '')?.id ?? members[0] ?? [...people.values()][0]?.id;
  if (creator === undefined) throw new TransferRefusal('InvalidOption', `${entry.source}: channel "${name}" has no member known from users.json.`);
  const id = newChannelId();
  const createdAt = conversation.created !== undefined ? conversation.created * 1000 : now;
  const purpose = conversation.purpose?.value || conversation.topic?.value || '';
  await tx.insertInto('channels').values({ id, team_id: teamId, name, purpose, type: kind, profile_image: null, created_by: creator, created_at: createdAt }).execute();
  const affiliations = [...new Set([creator, ...members])].map((userId) => ({ channel_id: id, user_id: userId, affiliation: userId === creator ? ('moderator' as const) : ('member' as const), joined_at: createdAt }));
  await tx.insertInto('channel_members').values(affiliations).execute();
  summary.channels++;
  return { chatKey: id, toOf: () => id };
}

/** Where a conversation's shared files are read from and stored. */
interface MessageFiles {
  tx: Tx;
  slack: SlackExport;
  folder: string;
  target: SlackFileTarget;
  stored: string[];
}

async function messageFrom(
  message: SlackMessage,
  chat: Chat,
  teamId: string,
  people: Map<string, MappedPerson>,
  context: MrkdwnContext,
  summary: SlackImportSummary,
  files: MessageFiles,
): Promise<{ row: MessagesTable; links: MessageFilesTable[] } | undefined> {
  if (message.subtype !== undefined && !MESSAGE_SUBTYPES.has(message.subtype)) {
    summary.skipped.subtypes[message.subtype] = (summary.skipped.subtypes[message.subtype] ?? 0) + 1;
    return undefined;
  }
  const sender = people.get(message.user ?? '');
  const to = sender && chat.toOf(sender.id);
  if (!sender || !to) {
    summary.skipped.unknownSender++;
    return undefined;
  }
  const converted = convertMrkdwn(message.text ?? '', context);
  const shared = message.files ?? [];
  const found = shared.flatMap((file) => {
    const path = slackFilePath(files.slack.files, files.folder, file);
    return path === undefined ? [] : [{ file, path, files: files.slack.files }];
  });
  if (converted.text.trim() === '' && shared.length === 0) {
    summary.skipped.empty++;
    return undefined;
  }
  const timestamp = slackTime(message.ts);
  const uid = newMessageUid(timestamp);
  const kept = await storeSlackFiles(files.tx, files.target, found, { uid, chat_key: chat.chatKey, team_id: teamId, from_user_id: sender.id, timestamp }, files.stored);
  const storedFiles = new Set(found.map(({ file }) => file).filter((file) => !kept.refused.includes(file)));
  const named = shared.filter((file) => !storedFiles.has(file)).map((file) => `📎 ${file.name ?? file.title ?? 'file'}`);
  const text = [converted.text, ...named].filter((part) => part.trim() !== '').join('\n');
  summary.filesImported += kept.shown.length;
  summary.filesNamed += named.length;
  if (message.edited?.ts) summary.edited++;
  const row = messageRow({
    uid, chat_key: chat.chatKey, team_id: teamId, from_user_id: sender.id, to_id: to, timestamp, text,
    mentions: converted.mentions.length > 0 ? JSON.stringify(converted.mentions) : null,
    edited_at: message.edited?.ts ? slackTime(message.edited.ts) : null,
    files: kept.shown.length > 0 ? JSON.stringify(kept.shown) : null,
  });
  return { row, links: kept.links };
}

/**
 * A message's reactions: each person who reacted with an emoji Slack names (custom emoji have no native
 * form), at the message's time. The rest is counted as skipped.
 */
function reactionsOf(message: SlackMessage, row: MessagesTable, people: Map<string, MappedPerson>, summary: SlackImportSummary): ReactionsTable[] {
  const rows: ReactionsTable[] = [];
  for (const reaction of message.reactions ?? []) {
    const emoji = slackEmoji(reaction.name);
    const users = reaction.users ?? [];
    const known = emoji === undefined ? [] : [...new Set(users.map((id) => people.get(id)?.id).filter((id): id is string => id !== undefined))];
    for (const userId of known) rows.push({ message_uid: row.uid, emoji: emoji!, user_id: userId, team_id: row.team_id, created_at: row.timestamp });
    summary.reactions += known.length;
    summary.reactionsSkipped += Math.max(reaction.count ?? users.length, users.length) - known.length;
  }
  return rows;
}

/** Messages (and their reactions and file links after them) written 500 at a time (the search index follows by its triggers). */
class MessageBatch {
  #rows: MessagesTable[] = [];
  #reactions: ReactionsTable[] = [];
  #links: MessageFilesTable[] = [];
  #written = 0;
  constructor(private readonly tx: Tx) {}

  async add(row: MessagesTable, reactions: ReactionsTable[], links: MessageFilesTable[]): Promise<void> {
    this.#rows.push(row);
    this.#reactions.push(...reactions);
    this.#links.push(...links);
    this.#written++;
    if (this.#rows.length >= 500) await this.flush();
  }

  /** Writes what is waiting; answers how many messages this batch has taken in all. */
  async flush(): Promise<number> {
    if (this.#rows.length > 0) await insertMessages(this.tx, this.#rows.splice(0));
    for (let start = 0; start < this.#reactions.length; start += 500) await this.tx.insertInto('reactions').values(this.#reactions.slice(start, start + 500)).execute();
    this.#reactions = [];
    for (const links = this.#links.splice(0); links.length > 0; ) await this.tx.insertInto('message_files').values(links.splice(0, 500)).execute();
    return this.#written;
  }
}
