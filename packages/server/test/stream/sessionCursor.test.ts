import { afterEach, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { http } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, streamCast } from './harness.js';

afterEach(closeStreams);

const PASSWORD = 'a password long enough';

forEachDialect('the session answers where the stream stands, so a client may load before the stream opens', (t) => {
  it('signing in answers the team and streamCursor; a stream opened from it brings what happened after the answer', async () => {
    const { team, people } = await streamCast(t(), ['Ben']);
    const [ben] = people;
    const ann = await t().f.person(team.id, { firstName: 'Ann', lastName: 'Early', password: PASSWORD });
    const { channel } = await createChannel(t().server.ctx, { user: ann, appId: null }, { name: 'room', members: [ben.user.id] });
    await ben.call('chat.sendFromComposer', { to: channel.id, text: 'before the sign-in' });

    const signedIn = await http(t().url, 'POST', '/api/session', { json: { email: ann.email, password: PASSWORD } });
    expect(signedIn.body).toMatchObject({ user: { id: ann.id }, team: { id: team.id, name: expect.any(String) }, streamCursor: expect.stringMatching(/^[0-9]+$/) });
    // Between the answer and the stream: what a page's first loads could miss.
    await ben.call('chat.sendFromComposer', { to: channel.id, text: 'after the sign-in' });
    const who = { user: ann, sessionToken: signedIn.body.sessionToken as string } as Parameters<typeof openStream>[1];
    const stream = await openStream(t(), who, { cursor: signedIn.body.streamCursor });
    await stream.waitFor(messageWithText('after the sign-in'));
    expect(stream.frames.some(messageWithText('before the sign-in'))).toBe(false);

    const session = await http(t().url, 'GET', '/api/session', { headers: { authorization: `Bearer ${signedIn.body.sessionToken}` } });
    expect(Number(session.body.streamCursor)).toBeGreaterThan(Number(signedIn.body.streamCursor));
  });
});
