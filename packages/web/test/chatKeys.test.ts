import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/api/client.js';
import { chatAlong } from '../src/app/chatKeys.js';

const chat = (id: string, kind: 'channel' | 'direct', unread = 0, archived = false): Conversation =>
  ({ chat: id, kind, name: id, unread, mentions: 0, ...(kind === 'channel' ? { channel: { id, name: id, ...(archived ? { archivedAt: 1 } : {}) } } : {}) }) as unknown as Conversation;

describe('Alt+↑ and Alt+↓ through the sidebar', () => {
  // The list as the server orders it (latest activity first): the sidebar shows channels, then direct chats.
  const list = [chat('u:ann', 'direct', 2), chat('g:general', 'channel'), chat('g:old', 'channel', 5, true), chat('g:launch', 'channel', 1), chat('u:ben', 'direct')];

  it('goes to the chat above or below in the sidebar’s order, archived channels left out, without wrapping', () => {
    expect(chatAlong(list, 'g:general', 1, false)).toBe('g:launch');
    expect(chatAlong(list, 'g:launch', 1, false)).toBe('u:ann');
    expect(chatAlong(list, 'u:ann', -1, false)).toBe('g:launch');
    expect(chatAlong(list, 'u:ben', 1, false)).toBeUndefined();
    expect(chatAlong(list, 'g:general', -1, false)).toBeUndefined();
    // From no open chat (the apps directory): the first going down, the last going up.
    expect(chatAlong(list, undefined, 1, false)).toBe('g:general');
    expect(chatAlong(list, undefined, -1, false)).toBe('u:ben');
  });

  it('with Shift, goes to the nearest chat that way with unread messages', () => {
    expect(chatAlong(list, 'g:general', 1, true)).toBe('g:launch');
    expect(chatAlong(list, 'g:launch', 1, true)).toBe('u:ann');
    expect(chatAlong(list, 'u:ann', 1, true)).toBeUndefined();
    expect(chatAlong(list, 'u:ben', -1, true)).toBe('u:ann');
    expect(chatAlong([], undefined, 1, true)).toBeUndefined();
  });
});
