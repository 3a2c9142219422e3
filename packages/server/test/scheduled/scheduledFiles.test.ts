import { expect, it } from 'vitest';
import { sweepOrphanFiles } from '../../src/core/files/fileCommands.js';
import { upload } from '../files/upload.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { handClock } from './scheduledCast.js';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/** A scheduled message's files: checked when it is scheduled, held from the sweep until it is sent, cancelled or refused. */
const clock = handClock();

forEachDialect(
  'scheduled messages with files',
  (t) => {
    const sweep = () => sweepOrphanFiles(t().server.ctx);
    const fileOf = async (token: string, name: string) => (await upload(t(), token, name, `bytes of ${name}`)).body.file as { id: string };
    const holds = () => t().testStore.store.db.selectFrom('scheduled_files').select('file_id').execute();

    it('holds its files past the orphan age and sends them with the message', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const file = await fileOf(alice.token, 'agenda.txt');
      const { scheduledMessage } = await alice.client.chat.scheduleMessage({ to: channelId, text: 'Agenda for Monday', files: [file.id], sendAt: clock.now() + 3 * DAY });
      expect(scheduledMessage.files).toEqual([file.id]);
      expect((await alice.client.chat.listScheduledMessages({ to: channelId })).scheduledMessages).toMatchObject([{ id: scheduledMessage.id, files: [file.id] }]);

      clock.advance(2 * DAY);
      await sweep();
      expect((await alice.client.files.getInfo({ file: file.id })).file.id).toBe(file.id);

      clock.advance(DAY);
      await t().server.scheduled.runOnce();
      const [sent] = (await bob.client.chat.fetchMessages({ chat: channelId })).filter((message) => message.text === 'Agenda for Monday');
      expect(sent.files?.map((carried) => carried.id)).toEqual([file.id]);
      expect(await holds()).toEqual([]);
      clock.advance(2 * DAY);
      await sweep();
      expect((await bob.client.files.getInfo({ file: file.id })).file.id).toBe(file.id);
    });

    it('lets the files go when the message is cancelled or refused at its time', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const cancelled = await fileOf(alice.token, 'draft.txt');
      const refused = await fileOf(bob.token, 'notes.txt');
      const first = await alice.client.chat.scheduleMessage({ to: channelId, text: 'never sent', files: [cancelled.id], sendAt: clock.now() + HOUR });
      await bob.client.chat.scheduleMessage({ to: channelId, text: 'refused', files: [refused.id], sendAt: clock.now() + HOUR });
      await alice.client.chat.deleteScheduledMessage({ id: first.scheduledMessage.id });
      await alice.client.channels.removeMembers({ channelId, members: [bob.id] });
      clock.advance(HOUR);
      await t().server.scheduled.runOnce();
      expect((await bob.client.chat.listScheduledMessages({})).scheduledMessages).toMatchObject([{ status: 'failed', error: { code: 'UnknownRecipient' } }]);
      expect(await holds()).toEqual([]);

      clock.advance(2 * DAY);
      await sweep();
      await expectApiError(alice.client.files.getInfo({ file: cancelled.id }), { error: 'UnknownFile' });
      await expectApiError(bob.client.files.getInfo({ file: refused.id }), { error: 'UnknownFile' });
    });

    it('refuses a file that is not the caller’s at once, and a send whose file was deleted meanwhile at its time', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const file = await fileOf(alice.token, 'plan.txt');
      await expectApiError(bob.client.chat.scheduleMessage({ to: channelId, text: 'not mine', files: [file.id], sendAt: clock.now() + HOUR }), {
        error: 'UnknownFile',
        parameter: 'files[0]',
      });
      const { scheduledMessage } = await alice.client.chat.scheduleMessage({ to: channelId, text: 'the plan', files: [file.id], sendAt: clock.now() + HOUR });
      await alice.client.files.delete({ file: file.id });
      expect(await holds()).toEqual([]);
      clock.advance(HOUR);
      await t().server.scheduled.runOnce();
      expect((await alice.client.chat.listScheduledMessages({})).scheduledMessages).toMatchObject([{ id: scheduledMessage.id, status: 'failed', error: { code: 'UnknownFile' } }]);
      expect((await bob.client.chat.fetchMessages({ chat: channelId })).map((message) => message.text)).not.toContain('the plan');
    });

    it('keeps a file whose message is deleted while a scheduled message still holds it', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const file = await fileOf(alice.token, 'shared.txt');
      const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'first', files: [file.id] });
      await alice.client.chat.scheduleMessage({ to: channelId, text: 'again', files: [file.id], sendAt: clock.now() + 2 * DAY });
      await alice.client.chat.deleteMessage({ messageUid: uid });
      clock.advance(2 * DAY);
      await sweep();
      await t().server.scheduled.runOnce();
      const [again] = (await bob.client.chat.fetchMessages({ chat: channelId })).filter((message) => message.text === 'again');
      expect(again.files?.map((carried) => carried.id)).toEqual([file.id]);
    });
  },
  roomyRateLimits,
  { now: clock.now },
);
