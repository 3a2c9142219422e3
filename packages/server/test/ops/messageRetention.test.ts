import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { pruneExpiredMessages } from '../../src/core/retention/pruneMessages.js';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { cliActor } from '../../src/core/audit/record.js';
import { setChannelMessageRetention, setTeamMessageRetention } from '../../src/core/commands/retention.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { storeContext } from '../../src/core/context.js';
import { newChannelId, newMessageUid } from '../../src/store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../../src/store/rows/messages.js';
import type { Db } from '../../src/store/store.js';
import { runCli, runCliJson } from '../cli/cli.js';
import { download, upload } from '../files/upload.js';
import { chatCast } from '../methods/chat-cast.js';
import { forEachDialect } from '../helpers/server.js';

const DAY_MS = 24 * 60 * 60 * 1000;

forEachDialect('retention of messages, per team and per channel', (t) => {
  /** A team of two with three channels and a direct chat, each with messages 20, 5 and 1 days old. */
  const teamWithHistory = async () => {
    const { db } = t().testStore.store;
    const team = await t().f.team();
    const [ana, ben] = [await t().f.person(team.id), await t().f.person(team.id)];
    const now = Date.now();
    // A word of this team's messages only, for the search index.
    const word = `kept${team.id.slice(2)}`;
    const channel = async (name: string) => {
      const id = newChannelId();
      await db.insertInto('channels').values({ id, team_id: team.id, name, purpose: '', type: 'public', profile_image: null, created_by: ana.id, created_at: 0 }).execute();
      return id;
    };
    const chats = { plain: await channel('plain'), forever: await channel('forever'), short: await channel('short'), direct: directChatKey(ana.id, ben.id) };
    const rows = Object.entries(chats).flatMap(([name, chatKey]) =>
      [20, 5, 1].map((daysAgo) => {
        const timestamp = now - daysAgo * DAY_MS;
        return messageRow({ uid: newMessageUid(timestamp), chat_key: chatKey, team_id: team.id, from_user_id: ana.id, to_id: name === 'direct' ? ben.id : chatKey, timestamp, text: `${name} ${word} ${daysAgo}` });
      }),
    );
    await insertMessages(db, rows.sort((a, b) => a.uid.localeCompare(b.uid)));
    // Indexed now (on SQLite the insert only queued them), so that the deletes below go through the index.
    await drainSearchQueue(db);
    const left = async () =>
      (await db.selectFrom('messages').select('text').where('team_id', '=', team.id).orderBy('text').execute()).map((row) => row.text.replace(word, 'word'));
    return { db, team, chats, now, left, word };
  };

  const indexed = async (db: Db, teamText: string): Promise<number> => {
    await drainSearchQueue(db);
    const query =
      t().testStore.store.dialect === 'sqlite'
        ? sql<{ count: number }>`select count(*) as count from message_search where message_search match ${teamText}`
        : sql<{ count: number }>`select count(*) as count from message_search where folded like ${`%${teamText}%`}`;
    return Number((await query.execute(db)).rows[0].count);
  };

  it('keeps messages forever by default; deletes past the team’s days, or a channel’s own, in batches, search index included', async () => {
    const { db, team, chats, now, left, word } = await teamWithHistory();
    expect(await pruneExpiredMessages(t().server.ctx, now, 2)).toEqual({ messages: 0, files: 0 });
    expect(await left()).toHaveLength(12);

    await setTeamMessageRetention(storeContext(db), cliActor, { teamId: team.id, choice: { keep: 'days', days: 10 } });
    await setChannelMessageRetention(storeContext(db), cliActor, { channelId: chats.forever, choice: { keep: 'forever' } });
    await setChannelMessageRetention(storeContext(db), cliActor, { channelId: chats.short, choice: { keep: 'days', days: 2 } });
    // Batches of two: several short transactions.
    const deleted = (await pruneExpiredMessages(t().server.ctx, now, 2)).messages;
    expect(await left()).toEqual(['direct word 1', 'direct word 5', 'forever word 1', 'forever word 20', 'forever word 5', 'plain word 1', 'plain word 5', 'short word 1']);
    expect(deleted).toBeGreaterThanOrEqual(4);
    expect(await indexed(db, word)).toBe(8);

    // Back to the team's setting: the channel loses what is older than 10 days.
    await setChannelMessageRetention(storeContext(db), cliActor, { channelId: chats.forever, choice: { keep: 'team' } });
    await pruneExpiredMessages(t().server.ctx, now, 2);
    expect(await left()).not.toContain('forever word 20');
  });

  it('is set with aviary retention, and runs as the server’s job with the deletions in the metrics', async () => {
    const { team, chats, left } = await teamWithHistory();
    const on = ['--data', t().testStore.dataDir, ...(t().testStore.databaseUrl ? ['--database-url', t().testStore.databaseUrl!] : [])];
    // The CLI takes a plain URL; a test store on PostgreSQL is a schema of its own: set it in the test's store instead.
    if (t().testStore.pgSchema) {
      await setTeamMessageRetention(storeContext(t().testStore.store.db), cliActor, { teamId: team.id, choice: { keep: 'days', days: 3 } });
      await setChannelMessageRetention(storeContext(t().testStore.store.db), cliActor, { channelId: chats.short, choice: { keep: 'forever' } });
    } else {
      expect(await runCliJson(['retention', 'set', '--team', team.id, '--messages', '3', ...on])).toEqual({ team: team.id, messageRetentionDays: 3 });
      expect(await runCliJson(['retention', 'set', '--channel', chats.short, '--messages', 'forever', ...on])).toEqual({ channel: chats.short, messageRetentionDays: 0 });
      const shown = await runCliJson(['retention', 'show', '--team', team.id, ...on]);
      expect(shown).toEqual({ team: { id: team.id, messageRetentionDays: 3 }, channels: [{ id: chats.short, name: 'short', messageRetentionDays: 0 }] });
      const refused = await runCli(['retention', 'set', '--team', team.id, '--messages', 'team', ...on, '--json']);
      expect(JSON.parse(refused.stdout)).toEqual({ error: 'InvalidOption', description: '--messages must be "forever", a number of days from 1 to 36500, not "team".' });
    }
    const scrape = async () => {
      const text = await (await fetch(`${t().url}/metrics`)).text();
      return Number(/^aviary_retention_deleted_total\{kind="messages"\} (\S+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await scrape();
    await t().server.retention.runOnce();
    expect(await left()).toEqual(['direct word 1', 'forever word 1', 'plain word 1', 'short word 1', 'short word 20', 'short word 5']);
    expect((await scrape()) - before).toBeGreaterThanOrEqual(6);
  });

  it('deletes the files only the deleted messages carried, bytes included; a file a kept message also carries stays', async () => {
    const { alice, team, channelId } = await chatCast(t());
    const { db } = t().testStore.store;
    const [alone, shared] = [(await upload(t(), alice.token, 'alone.txt', 'only on the old message')).body.file, (await upload(t(), alice.token, 'shared.txt', 'on both')).body.file];
    const { uid: oldUid } = await alice.client.chat.sendMessage({ to: channelId, text: 'old', files: [alone.id, shared.id] });
    const { uid: keptUid } = await alice.client.chat.sendMessage({ to: channelId, text: 'kept', files: [shared.id] });
    // The first message is made 30 days old; the second stays new.
    const monthAgo = Date.now() - 30 * DAY_MS;
    const oldered = newMessageUid(monthAgo);
    await db.updateTable('messages').set({ uid: oldered, timestamp: monthAgo }).where('uid', '=', oldUid).execute();
    await db.updateTable('message_files').set({ message_uid: oldered }).where('message_uid', '=', oldUid).execute();
    await setTeamMessageRetention(storeContext(db), cliActor, { teamId: team.id, choice: { keep: 'days', days: 7 } });
    const storedNames = async () => (await readdir(join(t().testStore.dataDir, 'files'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
    expect(await storedNames()).toEqual([alone.id, shared.id].map((id: string) => id.replace(':', '_')).sort());

    expect(await pruneExpiredMessages(t().server.ctx, Date.now())).toEqual({ messages: 1, files: 1 });
    expect(await storedNames()).toEqual([shared.id.replace(':', '_')]);
    expect(await db.selectFrom('files').select('id').where('id', 'in', [alone.id, shared.id]).execute()).toEqual([{ id: shared.id }]);
    expect((await download(t(), alice.token, shared.url)).bytes.toString()).toBe('on both');
    expect((await download(t(), alice.token, alone.url)).status).toBe(400);
    const [kept] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [keptUid] });
    expect(kept.files).toEqual([shared]);
  });

  it('keeps a thread readable past its parent’s retention: the parent stays emptied while a reply is kept, and goes with its last reply', async () => {
    const { alice, bob, channelId } = await chatCast(t());
    const { db } = t().testStore.store;
    const now = Date.now();
    const sentAt = (daysAgo: number) => ({ ...t().server.ctx, now: () => now - daysAgo * DAY_MS });
    const sender = async (id: string) => ({ user: await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow(), appId: null });
    const [asAna, asBen] = [await sender(alice.id), await sender(bob.id)];
    const parent = (await sendMessage(sentAt(20), asAna, { to: channelId, text: 'Where do we keep the launch notes?' })).message.uid;
    await sendMessage(sentAt(15), asBen, { to: channelId, text: 'In the wiki', threadParent: parent });
    const kept = (await sendMessage(sentAt(2), asBen, { to: channelId, text: 'Moved to the drive since', threadParent: parent })).message.uid;
    await setChannelMessageRetention(storeContext(db), cliActor, { channelId, choice: { keep: 'days', days: 10 } });

    // Other tests' teams may have messages past their retention too: only this channel's are looked at.
    const inChannel = async () => (await db.selectFrom('messages').select('uid').where('chat_key', '=', channelId).orderBy('uid').execute()).map((row) => row.uid);
    await pruneExpiredMessages(t().server.ctx, now);
    expect(await inChannel()).toEqual([parent, kept]);
    const [emptied] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [parent] });
    expect(emptied).toMatchObject({ uid: parent, text: '', deletedAt: expect.any(Number) });
    expect((await alice.client.chat.fetchMessages({ chat: channelId, thread: parent })).map((reply) => reply.uid)).toEqual([kept]);
    expect(await db.selectFrom('threads').select('reply_count').where('parent_uid', '=', parent).execute()).toEqual([{ reply_count: 1 }]);

    // Nine days on, the last reply is past the channel's ten days too: it takes the parent with it.
    await pruneExpiredMessages(t().server.ctx, now + 9 * DAY_MS);
    expect(await inChannel()).toEqual([]);
    expect(await db.selectFrom('threads').select('parent_uid').where('parent_uid', '=', parent).execute()).toEqual([]);
    expect(await db.selectFrom('thread_follows').select('user_id').where('parent_uid', '=', parent).execute()).toEqual([]);
  });
});
