import { describe, expect, it } from 'vitest';
import type { MessageModel as Message } from '@aviary/protocol';
import { applyReaction, reactorsText } from '../src/app/reactionState.js';

const message: Message = { uid: '01JABCDEFGHJKMNPQRSTVWXYZ0', from: 'u:a', to: 'g:c', timestamp: 1, text: 'lunch?' };
const names: Record<string, string> = { 'u:a': 'Ada', 'u:b': 'Bob', 'u:c': 'Cy' };

describe('reactions in the web client, from frames and the person’s own clicks', () => {
  it('counts each change once: the person’s own click and its frame, another’s frame replayed', () => {
    const mine = applyReaction(message, { emoji: '👍', userId: 'u:a', added: true }, 'u:a');
    expect(mine.reactions).toEqual([{ emoji: '👍', count: 1, userIds: ['u:a'], me: true }]);
    expect(applyReaction(mine, { emoji: '👍', userId: 'u:a', added: true }, 'u:a')).toBe(mine);
    const bobs = applyReaction(mine, { emoji: '👍', userId: 'u:b', added: true }, 'u:a');
    expect(applyReaction(bobs, { emoji: '👍', userId: 'u:b', added: true }, 'u:a')).toBe(bobs);
    expect(bobs.reactions).toEqual([{ emoji: '👍', count: 2, userIds: ['u:a', 'u:b'], me: true }]);
    const taken = applyReaction(bobs, { emoji: '👍', userId: 'u:a', added: false }, 'u:a');
    expect(taken.reactions).toEqual([{ emoji: '👍', count: 1, userIds: ['u:b'], me: false }]);
    expect(applyReaction(taken, { emoji: '👍', userId: 'u:a', added: false }, 'u:a')).toBe(taken);
    expect(applyReaction(taken, { emoji: '👍', userId: 'u:b', added: false }, 'u:a').reactions).toBeUndefined();
  });

  it('counts reactors beyond those named, and says who reacted', () => {
    const popular: Message = { ...message, reactions: [{ emoji: '🎉', count: 12, userIds: ['u:b', 'u:c'], me: false }] };
    const fewer = applyReaction(popular, { emoji: '🎉', userId: 'u:z', added: false }, 'u:a');
    expect(fewer.reactions![0]!.count).toBe(11);
    const named = (id: string) => names[id] ?? id;
    expect(reactorsText(fewer.reactions![0]!, named, 'u:a')).toBe('Bob, Cy and 9 others');
    expect(reactorsText({ emoji: '🎉', count: 2, userIds: ['u:a', 'u:b'], me: true }, named, 'u:a')).toBe('you and Bob');
  });
});
