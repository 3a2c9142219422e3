import { afterEach, describe, expect, it } from 'vitest';
import { setPersonRole } from '../../src/core/commands/administerPeople.js';
import { addChannelMembers, createChannel } from '../../src/core/commands/channels.js';
import { updateProfile } from '../../src/core/commands/people.js';
import { expectError, sessionFor, type SignedIn } from '../client/harness.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { closeStreams, fence, openStream, type StreamClient } from './harness.js';

afterEach(closeStreams);

/** Ann (a member) and Gus (a guest) share a channel; Dee, another member, shares nothing with Gus. */
async function guestCast(t: TestServer) {
  const team = await t.f.team();
  const signIn = async (firstName: string, role: 'admin' | 'user' | 'guest') => sessionFor(t, await t.f.person(team.id, { firstName, lastName: 'Teammate', role }));
  const ann = await signIn('Ann', 'admin');
  const gus = await signIn('Gus', 'guest');
  const dee = await signIn('Dee', 'user');
  const { channel } = await createChannel(t.server.ctx, { user: ann.user, appId: null }, { name: 'with the guest', members: [gus.user.id] });
  return { team, ann, gus, dee, channel };
}

const contactIds = async (who: SignedIn): Promise<string[]> => {
  const answer = await who.call('roster.listContacts');
  expect(answer.status).toBe(200);
  return (answer.body as Array<{ id: string; isBot?: true }>).filter((contact) => !contact.isBot).map((contact) => contact.id);
};

const renamedTo = (stream: StreamClient, lastName: string) => stream.data().some((frame) => frame.type === 'user.updated' && frame.user.lastName === lastName);

forEachDialect('guests meet only the people of their channels and direct chats', (t) => {
  describe('roster and direct messages', () => {
    it('a guest’s roster lists the people of their channels; a member’s lists everyone', async () => {
      const { ann, gus, dee } = await guestCast(t());
      expect(await contactIds(gus)).toEqual([ann.user.id]);
      expect((await contactIds(ann)).sort()).toEqual([dee.user.id, gus.user.id].sort());
      expect((await contactIds(dee)).sort()).toEqual([ann.user.id, gus.user.id].sort());
    });

    it('a guest may not write first to someone they do not meet; once written to, they may answer, and list them', async () => {
      const { ann, gus, dee } = await guestCast(t());
      expectError(await gus.call('chat.sendFromComposer', { to: dee.user.id, text: 'hello stranger' }), { error: 'UnknownRecipient', parameter: 'to', description: /As a guest you can write directly only to people who share a channel with you/ });
      expect((await gus.call('chat.sendFromComposer', { to: ann.user.id, text: 'hello Ann' })).status).toBe(200);
      expect((await dee.call('chat.sendFromComposer', { to: gus.user.id, text: 'hello guest' })).status).toBe(200);
      expect((await gus.call('chat.sendFromComposer', { to: dee.user.id, text: 'hello Dee' })).status).toBe(200);
      expect((await contactIds(gus)).sort()).toEqual([ann.user.id, dee.user.id].sort());
    });

    it('joining a channel lets a guest meet its people', async () => {
      const { ann, gus, dee } = await guestCast(t());
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'later', members: [dee.user.id] });
      expect(await contactIds(gus)).toEqual([ann.user.id]);
      await addChannelMembers(t().server.ctx, { user: ann.user, appId: null }, { channelId: channel.id, members: [gus.user.id] });
      expect((await contactIds(gus)).sort()).toEqual([ann.user.id, dee.user.id].sort());
      expect((await gus.call('chat.sendFromComposer', { to: dee.user.id, text: 'met you in #later' })).status).toBe(200);
    });
  });

  describe('the stream', () => {
    it('a profile change reaches members and the guests who meet the person, not other guests', async () => {
      const { team, ann, gus, dee } = await guestCast(t());
      const streams = await Promise.all([ann, gus, dee].map((who) => openStream(t(), who)));
      const [annStream, gusStream, deeStream] = streams;
      await updateProfile(t().server.ctx, ann.user, { lastName: 'Renamed' });
      await updateProfile(t().server.ctx, dee.user, { lastName: 'Unseen' });
      await fence(t(), team.id, ann.user.id, streams);
      expect([renamedTo(annStream, 'Renamed'), renamedTo(gusStream, 'Renamed'), renamedTo(deeStream, 'Renamed')]).toEqual([true, true, true]);
      expect([renamedTo(annStream, 'Unseen'), renamedTo(gusStream, 'Unseen'), renamedTo(deeStream, 'Unseen')]).toEqual([true, false, true]);
    });

    it('an open stream follows its person’s role: made a guest, they stop hearing of strangers; a member again, they do', async () => {
      const { team, ann, dee } = await guestCast(t());
      const eve = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Eve', lastName: 'Member' }));
      const eveStream = await openStream(t(), eve);
      const from = eveStream.cursor();
      const admin = { admin: ann.user, address: null };
      await setPersonRole(t().server.ctx, admin, { userId: eve.user.id, role: 'guest' });
      await updateProfile(t().server.ctx, dee.user, { lastName: 'WhileGuest' });
      await setPersonRole(t().server.ctx, admin, { userId: eve.user.id, role: 'user' });
      await updateProfile(t().server.ctx, dee.user, { lastName: 'AfterGuest' });
      await fence(t(), team.id, ann.user.id, [eveStream]);
      expect([renamedTo(eveStream, 'WhileGuest'), renamedTo(eveStream, 'AfterGuest')]).toEqual([false, true]);
      // A stream resumed afterwards replays by the role it starts with, a member's.
      const replayed = await openStream(t(), eve, { cursor: from });
      await fence(t(), team.id, ann.user.id, [replayed]);
      expect([renamedTo(replayed, 'WhileGuest'), renamedTo(replayed, 'AfterGuest')]).toEqual([true, true]);
    });
  });
});
