import type { MessageModel as Message, NotificationSettings } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { setNotificationSettings } from '../src/app/notify/settingsStore.js';
import { badgedIcon } from '../src/app/notify/tabBadge.js';
import { shouldNotify } from '../src/app/notify/useNotifier.js';
import { mentionedIds } from '../src/app/suggestions.js';
import { mentionsMe } from '../src/stream/applyFrames.js';

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
  it('notifies direct messages and mentions by default, never one’s own', () => {
    setNotificationSettings(settings());
    expect(shouldNotify(message({ to: me }), me, at)).toBe(true);
    expect(shouldNotify(message({ mentions: [me] }), me, at)).toBe(true);
    expect(shouldNotify(message({}), me, at)).toBe(false);
    expect(shouldNotify(message({ from: me, to: 'u:bbbbbbbbbbbbbbbb' }), me, at)).toBe(false);
  });

  it('follows a chat’s level: all notifies every message, mute nothing', () => {
    setNotificationSettings(settings({ chats: [{ chat: 'g:cccccccccccccccc', level: 'all' }, { chat: 'u:bbbbbbbbbbbbbbbb', level: 'mute' }] }));
    expect(shouldNotify(message({}), me, at)).toBe(true);
    expect(shouldNotify(message({ to: me }), me, at)).toBe(false);
  });

  it('holds everything back while paused or inside the schedule', () => {
    setNotificationSettings(settings({ pausedUntil: at + 60_000 }));
    expect(shouldNotify(message({ to: me }), me, at)).toBe(false);
    setNotificationSettings(settings({ schedule: { days: [5], start: '11:00', end: '13:00' } })); // a Friday, 12:00 UTC
    expect(shouldNotify(message({ to: me }), me, at)).toBe(false);
    expect(shouldNotify(message({ to: me }), me, at + 2 * 3_600_000)).toBe(true);
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
