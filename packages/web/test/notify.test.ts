import type { MessageModel as Message, NotificationSettings } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { badgedIcon, mentionedIds, mentionsMe, shouldNotify } from '../src/app/notify/rules.js';

const me = 'u:aaaaaaaaaaaaaaaa';
const at = Date.parse('2026-11-27T12:00:00Z');
const message = (fields: Partial<Message>): Message => ({ uid: '01JABCDEFGHJKMNPQRSTVWXYZ0', from: 'u:bbbbbbbbbbbbbbbb', to: 'g:cccccccccccccccc', timestamp: at, text: 'hello', ...fields });
const settings = (fields: Partial<NotificationSettings> = {}): NotificationSettings => ({ chats: [], schedule: null, pausedUntil: null, timeZone: 'UTC', ...fields });

describe('mentions in the web client', () => {
  it('sends the people picked whose names are still in the text, once each', () => {
    const picked = [{ userId: 'u:bob', label: 'Bob Baker' }, { userId: 'u:cy', label: 'Cy' }, { userId: 'u:bob', label: 'Bob Baker' }];
    expect(mentionedIds('@Bob Baker look', picked)).toEqual(['u:bob']);
    expect(mentionedIds('nobody now', picked)).toEqual([]);
  });

  it('counts a mention by id, and @channel / @here in a channel only', () => {
    expect(mentionsMe(message({ mentions: [me] }), me)).toBe(true);
    expect(mentionsMe(message({ text: '@here standup' }), me)).toBe(true);
    expect(mentionsMe(message({ to: me, text: '@channel in a direct chat' }), me)).toBe(false);
    expect(mentionsMe(message({ text: 'mail team@channel.example' }), me)).toBe(false);
  });
});

describe('which messages notify', () => {
  it('notifies direct messages and mentions before the settings are known', () => {
    expect(shouldNotify(message({ to: me }), me, undefined, at)).toBe(true);
    expect(shouldNotify(message({}), me, undefined, at)).toBe(false);
  });

  it('notifies direct messages and mentions by default, never one’s own', () => {
    const chosen = settings();
    expect(shouldNotify(message({ to: me }), me, chosen, at)).toBe(true);
    expect(shouldNotify(message({ mentions: [me] }), me, chosen, at)).toBe(true);
    expect(shouldNotify(message({}), me, chosen, at)).toBe(false);
    expect(shouldNotify(message({ from: me, to: 'u:bbbbbbbbbbbbbbbb' }), me, chosen, at)).toBe(false);
  });

  it('notifies a reply in a thread the person follows, unless the chat is muted', () => {
    const reply = message({ threadParent: '01M83633Y9RSAYX6J3EXPYWE3W' });
    expect(shouldNotify(reply, me, settings(), at)).toBe(false);
    expect(shouldNotify(reply, me, settings(), at, true)).toBe(true);
    expect(shouldNotify(reply, me, undefined, at, true)).toBe(true);
    expect(shouldNotify(reply, me, settings({ chats: [{ chat: 'g:cccccccccccccccc', level: 'mute' }] }), at, true)).toBe(false);
    expect(shouldNotify({ ...reply, from: me }, me, settings(), at, true)).toBe(false);
  });

  it('follows a chat’s level: all notifies every message, mute nothing', () => {
    const chosen = settings({ chats: [{ chat: 'g:cccccccccccccccc', level: 'all' }, { chat: 'u:bbbbbbbbbbbbbbbb', level: 'mute' }] });
    expect(shouldNotify(message({}), me, chosen, at)).toBe(true);
    expect(shouldNotify(message({ to: me }), me, chosen, at)).toBe(false);
  });

  it('holds everything back while paused or inside the schedule', () => {
    expect(shouldNotify(message({ to: me }), me, settings({ pausedUntil: at + 60_000 }), at)).toBe(false);
    const chosen = settings({ schedule: { days: [5], start: '11:00', end: '13:00' } }); // a Friday, 12:00 UTC
    expect(shouldNotify(message({ to: me }), me, chosen, at)).toBe(false);
    expect(shouldNotify(message({ to: me }), me, chosen, at + 2 * 3_600_000)).toBe(true);
  });
});

describe('the favicon', () => {
  it('carries the count, red when something mentions the person', () => {
    const icon = decodeURIComponent(badgedIcon(3, true).replace('data:image/svg+xml,', ''));
    expect(icon).toContain('>3</text>');
    expect(icon).toContain('#c92a2a');
    expect(decodeURIComponent(badgedIcon(150, false))).toContain('>99+</text>');
  });
});
