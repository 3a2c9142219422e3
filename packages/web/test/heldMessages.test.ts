import { describe, expect, it } from 'vitest';
import { HeldMessages, type Queued } from '../src/app/heldMessages.js';

/** A queue whose sends are recorded and whose waits run when the test says. */
function queue() {
  const sent: string[] = [];
  const waits: Array<{ ms: number; then: () => void }> = [];
  const held = new HeldMessages<Queued>(
    (message) => sent.push(message.id),
    (ms, then) => waits.push({ ms, then }),
  );
  const endWait = () => waits.shift()!.then();
  return { held, sent, waits, endWait };
}

const message = (id: string, order: number, chat = 'g:general'): Queued => ({ id, chat, order });

describe('messages held after "too fast"', () => {
  it('go again after the wait, one at a time, in the order they were written, whatever order the refusals came in', () => {
    const { held, sent, waits, endWait } = queue();
    const [twelve, thirteen, fourteen] = [message('m12', 12), message('m13', 13), message('m14', 14)];
    held.tooFast(thirteen, 2000);
    held.tooFast(twelve, 1000);
    expect(waits.map((wait) => wait.ms)).toEqual([2000]);
    // Written meanwhile: it waits its turn.
    expect(held.holds('g:general')).toBe(true);
    held.enqueue(fourteen);
    expect(sent).toEqual([]);
    endWait();
    expect(sent).toEqual(['m12']);
    held.settled(twelve);
    expect(sent).toEqual(['m12', 'm13']);
    held.settled(thirteen);
    held.settled(fourteen);
    expect(sent).toEqual(['m12', 'm13', 'm14']);
    expect(held.holds('g:general')).toBe(false);
  });

  it('a message let go and refused for speed again waits again, still first', () => {
    const { held, sent, waits, endWait } = queue();
    const [one, two] = [message('a', 1), message('b', 2)];
    held.tooFast(one, 1000);
    held.enqueue(two);
    endWait();
    held.tooFast(one, 3000);
    expect(waits.map((wait) => wait.ms)).toEqual([3000]);
    endWait();
    expect(sent).toEqual(['a', 'a']);
    held.settled(one);
    expect(sent).toEqual(['a', 'a', 'b']);
  });

  it('a cancelled message leaves the queue; other chats are not held', () => {
    const { held, sent, endWait } = queue();
    const [one, two] = [message('a', 1), message('b', 2)];
    held.tooFast(one, 1000);
    held.enqueue(two);
    held.settled(one);
    expect(held.holds('u:someone')).toBe(false);
    endWait();
    expect(sent).toEqual(['b']);
    held.settled(two);
    expect(held.holds('g:general')).toBe(false);
  });
});
