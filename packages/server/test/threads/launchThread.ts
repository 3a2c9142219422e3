import { createChannel } from '../../src/core/commands/channels.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import type { TestServer } from '../helpers/server.js';

/** The start of a thread: Alice's question in #launch, a public channel Bob is in too, and Bob's first reply to it. */
export async function launchThread(t: TestServer) {
  const team = await t.f.team();
  const [alice, bob] = [await t.f.person(team.id), await t.f.person(team.id)];
  const ctx = t.server.ctx;
  const { channel } = await createChannel(ctx, { user: alice, appId: null }, { name: 'launch', type: 'public', members: [bob.id] });
  const { message: root } = await sendMessage(ctx, { user: alice, appId: null }, { to: channel.id, text: 'Launch on Friday?' });
  const { message: first } = await sendMessage(ctx, { user: bob, appId: null }, { to: channel.id, text: 'Friday is fine', threadParent: root.uid });
  return { ctx, alice, bob, channel, root, first };
}
