import { sql } from 'kysely';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { storageKey } from '../../src/core/files/presentFile.js';
import { LocalFileStorage } from '../../src/files/localStorage.js';
import { dialects } from '../helpers/dialects.js';
import { runCli, runCliJson } from './cli.js';
import { cliScratch } from './stores.js';

/** A small Slack workspace export written by hand in Slack's format (users.json, channels.json, a folder of day files per conversation). */
const fixture = fileURLToPath(new URL('../fixtures/slack-export', import.meta.url));
/** The same files zipped (deflated), as Slack hands out an export. */
const zipped = fileURLToPath(new URL('../fixtures/slack-export.zip', import.meta.url));

describe.each(dialects)('aviary team import --slack (%s)', (dialect) => {
  const { fresh: freshOf, later, scratch } = cliScratch('slack');
  const fresh = () => freshOf(dialect);

  it('maps people by email, channels, direct chats and messages with their times and text, and says what it skipped', { timeout: 60_000 }, async () => {
    const store = await fresh();
    const teamId = (await runCliJson<{ id: string }>(['team', 'create', '--name', 'Analytical Engines', ...store.on])).id;
    const ada = (await runCliJson<{ id: string }>(['user', 'create', '--team', teamId, '--email', 'ada@example.test', '--first-name', 'Ada', '--last-name', 'Lovelace', ...store.on])).id;

    const summary = await runCliJson(['team', 'import', '--slack', fixture, '--team', teamId, ...store.on]);
    expect(summary).toEqual({
      teamId,
      createdTeam: false,
      people: { matched: 1, created: 3, withoutPassword: ['grace@example.test', 'alan@example.test'], withoutEmail: 1 },
      channels: 4,
      directChats: 1,
      messages: 9,
      threadReplies: 1,
      edited: 1,
      filesImported: 2,
      filesNamed: 1,
      reactions: 3,
      reactionsSkipped: 1,
      skipped: { subtypes: { channel_join: 1, channel_topic: 1 }, unknownSender: 1, empty: 1, unknownConversation: 1 },
    });

    const opened = store.open();
    later(() => opened.close());
    const db = opened.db;
    // The import indexed its messages for search before it returned: none is left queued for the server.
    expect(Number((await sql<{ n: number }>`select count(*) as n from message_search_queue`.execute(db)).rows[0].n)).toBe(0);
    const users = await db.selectFrom('users').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('email').execute();
    const byEmail = (email: string) => users.find((user) => user.email === email)!;
    const grace = byEmail('grace@example.test');
    expect(grace).toMatchObject({ first_name: 'Grace', last_name: 'Brewster Hopper', role: 'user', timezone: 'America/New_York', password_hash: null, deactivated_at: null });
    expect(byEmail('alan@example.test')).toMatchObject({ role: 'guest', timezone: 'Etc/GMT-1', deactivated_at: expect.any(Number) });
    expect(users.find((user) => user.first_name === 'slackbot')).toMatchObject({ email: null, deactivated_at: expect.any(Number) });

    const channels = await db.selectFrom('channels').selectAll().where('team_id', '=', teamId).orderBy('name').execute();
    expect(channels.map((channel) => [channel.name, channel.type, channel.purpose])).toEqual([
      ['design', 'private', 'Private design talk'],
      ['general', 'public', 'Everything, everyone'],
      ['mpdm-ada--grace--alan-1', 'private', 'Group messaging with: @ada @grace @alan'],
      ['random', 'public', 'Off topic'],
    ]);
    const general = channels.find((channel) => channel.name === 'general')!;
    expect(general).toMatchObject({ created_by: ada, created_at: 1709000000_000 });
    const members = await db.selectFrom('channel_members').selectAll().where('channel_id', '=', general.id).execute();
    expect(members.map((member) => [member.user_id, member.affiliation]).sort()).toEqual(
      [[ada, 'moderator'], [grace.id, 'member'], [byEmail('alan@example.test').id, 'member']].sort(),
    );

    const messages = await db.selectFrom('messages').selectAll().where('team_id', '=', teamId).orderBy('timestamp').execute();
    const inGeneral = messages.filter((message) => message.chat_key === general.id);
    expect(inGeneral.map((message) => message.text)).toEqual([
      'Welcome @Grace Brewster Hopper! See #random, [the docs](https://example.com/docs) and https://example.com; write to ada@example.test',
      'Thanks **all** & hello <3',
      'Here is the plan\n📎 plan.pdf',
      'Fixed the typo',
      '@here I am leaving, thanks @Ada Lovelace',
    ]);
    expect(inGeneral[0]).toMatchObject({ from_user_id: ada, to_id: general.id, timestamp: 1709287200_000, mentions: JSON.stringify([grace.id]), thread_parent: null });
    // Slack's thread reply is a reply in its parent's thread, summarised and followed by both, read.
    expect(inGeneral[1]).toMatchObject({ thread_parent: inGeneral[0].uid, also_in_channel: 0 });
    expect(await db.selectFrom('threads').selectAll().where('parent_uid', '=', inGeneral[0].uid).executeTakeFirst()).toMatchObject({ reply_count: 1, last_reply_uid: inGeneral[1].uid, participants: JSON.stringify([grace.id]) });
    const follows = await db.selectFrom('thread_follows').select(['user_id', 'read_up_to']).where('parent_uid', '=', inGeneral[0].uid).execute();
    expect(follows.map((row) => [row.user_id, row.read_up_to]).sort()).toEqual([[ada, inGeneral[1].uid], [grace.id, inGeneral[1].uid]].sort());
    // The files whose bytes the export holds (in the channel's attachments/, and in __uploads/) are files of their message; plan.pdf, only linked, is named.
    const shown = JSON.parse(inGeneral[2].files!) as Array<{ id: string; name: string; mimeType: string; size: number; width?: number }>;
    expect(shown.map(({ name, mimeType, width }) => ({ name, mimeType, width }))).toEqual([
      { name: 'diagram.png', mimeType: 'image/png', width: 24 },
      { name: 'notes.txt', mimeType: 'application/octet-stream', width: undefined },
    ]);
    const links = await db.selectFrom('message_files').select(['file_id', 'position']).where('message_uid', '=', inGeneral[2].uid).orderBy('position').execute();
    expect(links).toEqual(shown.map((file, position) => ({ file_id: file.id, position })));
    expect(await db.selectFrom('files').select(['uploaded_by', 'state', 'attached_at']).where('id', 'in', shown.map((file) => file.id)).execute()).toEqual([
      { uploaded_by: ada, state: 'stored', attached_at: inGeneral[2].timestamp },
      { uploaded_by: ada, state: 'stored', attached_at: inGeneral[2].timestamp },
    ]);
    const storage = new LocalFileStorage(join(store.on[store.on.indexOf('--data') + 1], 'files'));
    const bytesOf = async (id: string) => Buffer.concat(await (await storage.get(storageKey({ id, team_id: teamId }))).toArray());
    expect((await bytesOf(shown[0].id)).equals(readFileSync(join(fixture, 'general/attachments/F0100000002-diagram.png')))).toBe(true);
    expect((await bytesOf(shown[1].id)).toString()).toBe('Notes from the planning meeting.\n');
    expect(inGeneral[3]).toMatchObject({ from_user_id: grace.id, edited_at: 1709287560_000 });
    expect(inGeneral[4].mentions).toBe(JSON.stringify([ada]));
    // Slack's emoji names become native emoji (with a skin tone); a custom emoji (partyparrot) is not imported.
    const reactions = await db.selectFrom('reactions').select(['emoji', 'user_id', 'created_at']).where('message_uid', '=', inGeneral[1].uid).execute();
    expect(reactions.map((reaction) => [reaction.emoji, reaction.user_id]).sort()).toEqual(
      [['🎉', ada], ['🎉', byEmail('alan@example.test').id], ['👍🏼', ada]].sort(),
    );
    expect(reactions.every((reaction) => reaction.created_at === inGeneral[1].timestamp)).toBe(true);
    const direct = messages.filter((message) => message.chat_key.includes('|'));
    expect(direct).toEqual([expect.objectContaining({ chat_key: [ada, grace.id].sort().join('|'), from_user_id: grace.id, to_id: ada, text: 'Hi Ada' })]);
    expect(messages.find((message) => message.text.startsWith('~~old~~'))?.text).toBe('~~old~~ new, _really_');

    // Importing it again is refused, and changes nothing.
    const again = await runCli(['team', 'import', '--slack', fixture, '--team', teamId, ...store.on, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ error: 'ImportConflict', description: expect.stringContaining('already has a channel "general"') });
    expect(await db.selectFrom('messages').select('uid').where('team_id', '=', teamId).execute()).toHaveLength(9);
    expect(await db.selectFrom('users').select('id').where('team_id', '=', teamId).execute()).toHaveLength(4);
  });

  it('names a file it refuses (its name claims a type its bytes are not) on a line, as a file only linked', { timeout: 60_000 }, async () => {
    const store = await fresh();
    const copy = join(scratch(), 'export');
    cpSync(fixture, copy, { recursive: true });
    mkdirSync(join(copy, '__uploads', 'F0100000009'));
    writeFileSync(join(copy, '__uploads', 'F0100000009', 'photo.png'), 'not a picture at all');
    const day = join(copy, 'general', '2024-03-02.json');
    const messages = JSON.parse(readFileSync(day, 'utf8'));
    messages[0].files = [{ id: 'F0100000009', name: 'photo.png' }];
    writeFileSync(day, JSON.stringify(messages));
    const summary = await runCliJson(['team', 'import', '--slack', copy, '--team-name', 'Refused', ...store.on]);
    expect({ filesImported: summary.filesImported, filesNamed: summary.filesNamed }).toEqual({ filesImported: 2, filesNamed: 2 });
    const opened = store.open();
    later(() => opened.close());
    const last = await opened.db.selectFrom('messages').select(['text', 'files']).where('team_id', '=', summary.teamId).where('timestamp', '=', 1709373600_000).executeTakeFirstOrThrow();
    expect(last).toEqual({ text: '@here I am leaving, thanks @Ada Lovelace\n📎 photo.png', files: null });
    // Nothing of it stayed in storage: the two files stored are the fixture's.
    expect(await opened.db.selectFrom('files').select('name').where('team_id', '=', summary.teamId).orderBy('name').execute()).toEqual([{ name: 'diagram.png' }, { name: 'notes.txt' }]);
    const stored = readdirSync(join(store.on[store.on.indexOf('--data') + 1], 'files'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(stored).toHaveLength(2);
  });

  it('reads the export’s zip in place as it reads the folder', { timeout: 60_000 }, async () => {
    const store = await fresh();
    const fromFolder = await runCliJson(['team', 'import', '--slack', fixture, '--team-name', 'Folder', ...store.on]);
    const fromZip = await runCliJson(['team', 'import', '--slack', zipped, '--team-name', 'Zip', ...store.on]);
    expect({ ...fromZip, teamId: undefined }).toEqual({ ...fromFolder, teamId: undefined });
    const opened = store.open();
    later(() => opened.close());
    const texts = async (teamId: string) =>
      opened.db.selectFrom('messages').select(['text', 'timestamp', 'edited_at']).where('team_id', '=', teamId).orderBy('timestamp').execute();
    expect(await texts(fromZip.teamId)).toEqual(await texts(fromFolder.teamId));
    const sizes = async (teamId: string) => (await opened.db.selectFrom('files').select(['name', 'size', 'mime_type']).where('team_id', '=', teamId).orderBy('name').execute());
    expect(await sizes(fromZip.teamId)).toEqual(await sizes(fromFolder.teamId));
    expect(await sizes(fromZip.teamId)).toHaveLength(2);

    const notZip = await runCli(['team', 'import', '--slack', `${fixture}/users.json`, ...store.on, '--json']);
    expect(JSON.parse(notZip.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('is neither a folder nor a zip file') });
  });

  it('imports into a new team and prints what it mapped and skipped; refuses a folder that is no Slack export', { timeout: 60_000 }, async () => {
    const store = await fresh();
    const result = await runCli(['team', 'import', '--slack', fixture, '--team-name', 'From Slack', ...store.on]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('into the new team t:');
    expect(result.stdout).toContain('0 matched by email, 4 created');
    expect(result.stdout).toContain('3 created people have no password');
    expect(result.stdout).toContain('1 thread replies imported as replies in the thread of their parent');
    expect(result.stdout).toContain('3 reactions (Slack\'s emoji names as native emoji).');
    expect(result.stdout).toContain('Not imported: 1 reactions (a team\'s custom emoji, or by someone not in users.json); 1 channel_join, 1 channel_topic channel events');

    const notSlack = await runCli(['team', 'import', '--slack', `${fixture}/general`, ...store.on, '--json']);
    expect(notSlack.code).toBe(1);
    expect(JSON.parse(notSlack.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('users.json is missing') });
    const both = await runCli(['team', 'import', '--slack', fixture, '--from', fixture, ...store.on, '--json']);
    expect(JSON.parse(both.stdout).error).toBe('InvalidUsage');
  });
});
