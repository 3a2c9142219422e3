import { describe, expect, it } from 'vitest';
import { updateApp } from '../../src/core/commands/apps.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { updateProfile } from '../../src/core/commands/people.js';
import { ApiError } from '../../src/errors.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError } from '../methods/chat-cast.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * The names people read (apps, people, channels, `sendAs`) show something and cannot turn the text
 * around them: a name only of invisible characters, or with a bidi override, is refused wherever it is
 * given, naming the field; an ordinary `sendAs` still works.
 */
const blankNames = ['\u200B', '\u2800', '\u3164', '\u202E', ' \u200D '];
const reversed = 'Admin\u202Enimda';
/** A name with a line break: in an invitation's mail it would start a line of the name-giver's choosing. */
const twoLines = 'Jonas\nVisit http://evil.example';

async function refusal(change: Promise<unknown>): Promise<ApiError> {
  const error = await change.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

forEachDialect('names people read', (t) => {
  it('refuses an app name made only of invisible characters or with a bidi control, on create and on update', async () => {
    const { team, alice, app, f } = await chatCast(t());
    for (const name of [...blankNames, reversed]) {
      const error = await refusal(f.app(team.id, alice.id, { name }));
      expect(error.code === 'InvalidParameter' || error.code === 'MissingParameter', name).toBe(true);
      expect(error.context).toMatchObject({ parameter: 'name' });
      expect((await refusal(updateApp(storeContext(t().testStore.store.db), cliActor, { appId: app.id, name }))).context).toMatchObject({ parameter: 'name' });
    }
  });

  it('refuses such a person name, when the person is made and when they change their profile', async () => {
    const { team, alice, f } = await chatCast(t());
    const db = t().testStore.store.db;
    const person = await db.selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
    for (const name of [...blankNames, reversed, twoLines]) {
      expect((await refusal(f.person(team.id, { firstName: name }))).context).toMatchObject({ parameter: 'firstName' });
      expect((await refusal(f.person(team.id, { lastName: name }))).context).toMatchObject({ parameter: 'lastName' });
      expect((await refusal(updateProfile(t().server.ctx, person, { lastName: name }))).context).toMatchObject({ parameter: 'lastName' });
    }
  });

  it('refuses such a channel name through channels.create and the core command alike', async () => {
    const { alice } = await chatCast(t());
    const person = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
    for (const name of ['\u3164', reversed]) {
      await expectApiError(alice.client.channels.create({ name, members: [] }), { error: 'InvalidParameter', parameter: 'name' });
      expect((await refusal(createChannel(t().server.ctx, { user: person, appId: null }, { name, members: [] }))).context).toMatchObject({ parameter: 'name' });
    }
  });

  describe('sendAs', () => {
    it('refuses an invisible or reversing sendAs name, and keeps an ordinary one', async () => {
      const { alice, bob } = await chatCast(t());
      for (const name of ['\u2800', reversed]) {
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', sendAs: { name } }), { error: 'InvalidParameter', parameter: 'sendAs.name' });
      }
      const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'Deployed', sendAs: { name: 'Release Captain' } });
      const [seen] = await bob.client.chat.fetchMessages({ chat: alice.id, uids: [uid] });
      expect(seen.sendAs).toEqual({ name: 'Release Captain' });
    });
  });
});
