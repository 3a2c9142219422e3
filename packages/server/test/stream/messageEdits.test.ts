import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, expect, it } from 'vitest';
import { closeSdkApps, clientCast } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, messageWithText, openStream, type StreamClient } from './harness.js';

afterEach(closeStreams);
afterAll(closeSdkApps);

const updates = (stream: StreamClient) => stream.data().flatMap((frame) => (frame.type === 'message.updated' ? [frame.message] : []));

/** chat.updateMessage's edit reaches whoever sees the message, live or on replay, as `message.updated`. */
forEachDialect('the stream: a message edited by its sender', (t) => {
  /** Alice sends through an app of her own (not the preview app), so that a preview is hers to ask for. */
  async function editCast() {
    const cast = await clientCast(t(), { previewDomains: ['preview.example.test'] });
    cast.sdkApp.answer = () => ({ title: 'A preview' });
    const poster = await t().f.app(cast.team.id, cast.alice.user.id, { name: 'Poster' });
    const client = t().client((await t().f.install(poster.id, cast.alice.user.id)).token);
    return { ...cast, client };
  }

  it('reaches the chat’s readers live, with editedAt, and no one else; a link in the edit asks for no preview', async () => {
    const cast = await editCast();
    const outsider = await cast.person('Olga');
    const streams = await Promise.all([cast.alice, cast.bob, outsider].map((who) => openStream(t(), who)));
    const { uid } = await cast.client.chat.sendMessage({ to: cast.channel.id, text: 'Lunch? 0 votes' });
    const edit = await cast.client.chat.updateMessage({ messageUid: uid, text: 'Lunch? 1 vote https://preview.example.test/1' });
    // The control: a new message with a link of the preview domain gets its preview.
    await cast.client.chat.sendMessage({ to: cast.channel.id, text: 'see https://preview.example.test/2' });
    await t().server.ctx.background.settled();
    await fence(t(), cast.team.id, cast.alice.user.id, streams);

    const [aliceSees, bobSees, olgaSees] = streams.map(updates);
    expect(bobSees).toEqual(aliceSees);
    expect(bobSees).toMatchObject([
      { uid, text: 'Lunch? 1 vote https://preview.example.test/1', editedAt: edit.editedAt },
      { text: 'see https://preview.example.test/2', attachments: [{ title: 'A preview' }] },
    ]);
    expect(bobSees[0].attachments).toBeUndefined();
    expect(olgaSees).toEqual([]);
    for (const frame of streams.flatMap((stream) => stream.frames)) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
  });

  it('is replayed to a reader who reconnects with a cursor from before it', async () => {
    const cast = await editCast();
    const first = await openStream(t(), cast.bob);
    const { uid } = await cast.client.chat.sendMessage({ to: cast.channel.id, text: 'draft' });
    await first.waitFor(messageWithText('draft'));
    const cursor = first.cursor();
    await first.close();

    await cast.client.chat.updateMessage({ messageUid: uid, text: 'final' });
    const again = await openStream(t(), cast.bob, { cursor });
    await again.waitFor(messageWithText('final'));
    expect(again.data().map((frame) => frame.type)).toEqual(['message.updated']);
    expect(updates(again)).toMatchObject([{ uid, text: 'final', editedAt: expect.any(Number) }]);
  });
});
