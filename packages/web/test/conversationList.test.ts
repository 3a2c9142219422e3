import type { StreamDataFrame } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/api/client.js';
import { ConversationList } from '../src/stream/conversationList.js';

const me = 'u:bbbbbbbbbbbbbbbb';
const alice = 'u:aaaaaaaaaaaaaaaa';
const channel = 'g:cccccccccccccccc';
const other = 'g:dddddddddddddddd';
const conversation = (chat: string, lastAt: number): Conversation => ({
  chat: chat as Conversation['chat'],
  kind: 'channel',
  name: chat,
  lastMessage: { uid: `01JABCDEFGHJKMNPQRSTV${String(lastAt).padStart(5, '0')}`, from: alice, to: chat, timestamp: lastAt, text: 'earlier' } as Conversation['lastMessage'],
  unread: 0,
  mentions: 0,
});
/** Alice's messages to the channel, sent at 101, 102, … */
const sent = (from: number, count: number): StreamDataFrame[] =>
  Array.from({ length: count }, (_, at) => {
    const n = from + at;
    const message = { uid: `01JABCDEFGHJKMNPQRSTV${String(n).padStart(5, '0')}`, from: alice, to: channel, timestamp: n, text: `Piled up ${n}` };
    return { type: 'message.created', cursor: String(n), message } as StreamDataFrame;
  });

/** A list whose drawn state is only what `show` was last given, as the page's is. */
function listOnPage() {
  const drawn: Conversation[][] = [];
  const list = new ConversationList(me, (conversations) => drawn.push(conversations));
  const unreadOf = (chat: string) => drawn.at(-1)?.find((c) => c.chat === chat)?.unread;
  return { list, drawn, unreadOf };
}

describe('the sidebar’s list of conversations, kept from loads and stream frames', () => {
  it('counts every batch that comes before the page draws the one before', () => {
    const { list, unreadOf } = listOnPage();
    const load = list.startLoad();
    list.loaded(load, [conversation(channel, 100), conversation(other, 50)], other);
    // Two batches in a row, nothing drawn between: the second starts from the first's counts.
    list.apply(sent(101, 25), other);
    list.apply(sent(126, 15), other);
    expect(unreadOf(channel)).toBe(40);
    // The same frames again (a replay after a reconnect) count nothing.
    list.apply(sent(121, 20), other);
    expect(unreadOf(channel)).toBe(40);
  });

  it('gives a load’s answer the frames that came while it was on its way, and drops an older load’s answer', () => {
    const { list, drawn, unreadOf } = listOnPage();
    const first = list.startLoad();
    // Before any answer, frames wait for it; nothing is drawn from them.
    expect(list.apply(sent(101, 3), undefined)).toBeUndefined();
    expect(drawn).toHaveLength(0);
    const second = list.startLoad();
    list.apply(sent(104, 2), undefined);
    // The second load's answer, made before the two frames that came after it started.
    expect(list.loaded(second, [conversation(channel, 103)], undefined)).toBeDefined();
    expect(unreadOf(channel)).toBe(2);
    // The first load's answer comes last, and is dropped.
    expect(list.loaded(first, [conversation(channel, 100)], undefined)).toBeUndefined();
    expect(drawn).toHaveLength(1);
    list.apply(sent(106, 1), undefined);
    expect(unreadOf(channel)).toBe(3);
  });

  it('keeps no frames for a load that failed', () => {
    const { list, unreadOf } = listOnPage();
    list.loaded(list.startLoad(), [conversation(channel, 100)], undefined);
    const failed = list.startLoad();
    list.apply(sent(101, 1), undefined);
    list.abandon(failed);
    expect(list.loaded(failed, [conversation(channel, 100)], undefined)).toBeUndefined();
    expect(unreadOf(channel)).toBe(1);
  });

  it('does not count what comes to the chat being read', () => {
    const { list, unreadOf } = listOnPage();
    list.loaded(list.startLoad(), [conversation(channel, 100)], channel);
    list.apply(sent(101, 5), channel);
    expect(unreadOf(channel)).toBe(0);
  });
});
