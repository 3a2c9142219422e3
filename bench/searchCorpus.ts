// The search bench's corpus: a team, its channels and direct chats, and messages whose words follow a
// Zipf law over a vocabulary of common English words and generated ones (some accented), so that a
// query meets rare, middling and common words as in a real team's history.
import { createChannel } from '../packages/server/src/core/commands/channels.js';
import { createPerson, createTeam } from '../packages/server/src/core/commands/people.js';
import { drainSearchQueue } from '../packages/server/src/core/search/searchQueue.js';
import type { MessagesTable, UsersTable } from '../packages/server/src/store/schema.js';
import { newMessageUid } from '../packages/server/src/store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../packages/server/src/store/rows/messages.js';
import type { Store } from '../packages/server/src/store/store.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

const COMMON = `the to and a of in is it you that for on we this be with have are not can i at will do so
just but if as from what about all up get out now there was one my your like please deploy build release
meeting today tomorrow fix bug test review merge branch issue ticket customer team update check thanks
lunch call design server client database query error log alert staging production version notes plan
week friday monday sprint demo feature docs api token login page report metrics latency cache queue`.split(/\s+/);

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'to', 'sa', 'vel', 'dor', 'qui', 'na', 'bre', 'tis', 'po', 'lan', 'é', 'gu', 'zar', 'mon', 'fé', 'ri'];

/** A seeded generator (mulberry32): the same corpus every run. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Vocabulary {
  words: string[];
  /** A word drawn by its Zipf weight. */
  draw(): string;
}

export function vocabulary(random: () => number, generated = 20_000): Vocabulary {
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < COMMON.length + generated) {
    const length = 2 + Math.floor(random() * 3);
    const word = Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank++) cumulative.push((total += 1 / rank ** 1.05));
  const draw = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return words[low];
  };
  return { words, draw };
}

export interface Corpus {
  reader: UsersTable;
  channelNames: string[];
  /** Some messages' texts, for phrases taken from real messages. */
  samples: string[];
}

/** A message's text: 4 to 23 words drawn by their Zipf weights. */
export function drawText(random: () => number, words: Vocabulary): string {
  return Array.from({ length: 4 + Math.floor(random() * 20) }, () => words.draw()).join(' ');
}

/** The messages' texts and senders, in order: the same draws whether they are written or only replayed. */
function* corpusMessages(count: number, random: () => number, words: Vocabulary, chats: number, people: number) {
  for (let i = 0; i < count; i++) {
    const chat = Math.floor(random() * chats);
    const text = drawText(random, words);
    yield { i, chat, text, from: Math.floor(random() * people) };
  }
}

const PEOPLE = 20;
const CHANNELS = 30;

/** Seeds `count` messages through the one writer of messages (so the index's triggers run), 1,000 a transaction, each followed by a drain of the index's queue. */
export async function seedCorpus(store: Store, count: number, random: () => number, words: Vocabulary): Promise<Corpus> {
  const db = store.db;
  const now = Date.UTC(2026, 0, 1);
  const team = await createTeam(storeContext(db, () => now), cliActor, { name: 'Search bench' });
  const people: UsersTable[] = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await createPerson(storeContext(db, () => now), cliActor, { teamId: team.id, email: `p${i}@bench.test`, firstName: `P${i}`, lastName: 'Bench' }));
  const [reader] = people;
  const chats: Array<{ key: string; to: string }> = [];
  const channelNames: string[] = [];
  for (let i = 0; i < CHANNELS; i++) {
    const name = `channel-${i}`;
    const members = people.filter((_, p) => p !== 0 && (i < 20 || p % 3 === 0)).map((p) => p.id);
    const { channel } = await createChannel(storeContext(db, () => now), { user: people[0], appId: null }, { name, type: i % 5 === 4 ? 'private' : 'public', members });
    chats.push({ key: channel.id, to: channel.id });
    channelNames.push(name);
  }
  for (const other of people.slice(1)) chats.push({ key: directChatKey(reader.id, other.id), to: other.id });
  const samples: string[] = [];
  const start = now - count * 1000;
  let rows: MessagesTable[] = [];
  const write = async () => {
    await db.transaction().execute((tx) => insertMessages(tx, rows));
    // As the server's drain does after the sends (migrations 0029 and 0040: the trigger only queues them).
    await drainSearchQueue(db);
    rows = [];
  };
  for (const message of corpusMessages(count, random, words, chats.length, people.length)) {
    const { i, text } = message;
    const chat = chats[message.chat];
    if (i % 97 === 0) samples.push(text);
    rows.push(messageRow({ uid: newMessageUid(start + i * 1000), chat_key: chat.key, team_id: team.id, from_user_id: people[message.from].id, to_id: chat.to, timestamp: start + i * 1000, text }));
    if (rows.length === 1000) await write();
  }
  if (rows.length > 0) await write();
  return { reader, channelNames, samples };
}

/**
 * The corpus `seedCorpus` wrote into `store` earlier with the same arguments, read back: its draws are
 * replayed without writing, so the samples and the generator's state after it are those of the seeding.
 */
export async function replayCorpus(store: Store, count: number, random: () => number, words: Vocabulary): Promise<Corpus> {
  const reader = await store.db.selectFrom('users').selectAll().where('email', '=', 'p0@bench.test').executeTakeFirstOrThrow();
  const samples: string[] = [];
  for (const { i, text } of corpusMessages(count, random, words, CHANNELS + PEOPLE - 1, PEOPLE)) if (i % 97 === 0) samples.push(text);
  return { reader, channelNames: Array.from({ length: CHANNELS }, (_, i) => `channel-${i}`), samples };
}
