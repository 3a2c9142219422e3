import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { call, PASSWORD, signIn } from '../audit/harness.js';

/**
 * A person's status (users.updateProfile's statusText, statusEmoji, statusExpiresAt): shown to the team
 * next to their name (roster.listContacts, users.getPublicProfile, the user.updated frame) until it
 * expires on the server's clock, which the test moves.
 */
for (const dialect of dialects) {
  describe(`profile status with an expiry [${dialect}]`, () => {
    let t: TestServer;
    let clock = Date.UTC(2026, 9, 25, 0, 30);
    beforeAll(async () => {
      t = await startTestServer(dialect, {}, { now: () => clock });
    });
    afterAll(() => stopTestServer(t));

    it('shows a status with its emoji until it expires, then no more; an empty text clears it', async () => {
      const team = await t.f.team();
      const ada = await t.f.person(team.id, { firstName: 'Ada', lastName: 'Away', password: PASSWORD });
      const mo = await t.f.person(team.id, { firstName: 'Mo', lastName: 'Member', password: PASSWORD });
      const adaToken = await signIn(t, ada.email!);
      const moToken = await signIn(t, mo.email!);
      const inAnHour = clock + 60 * 60_000;

      const set = await call(t, 'users.updateProfile', { statusText: '  On holiday ', statusEmoji: '🌴', statusExpiresAt: inAnHour }, adaToken);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const status = { text: 'On holiday', emoji: '🌴', expiresAt: inAnHour };
      expect((await call(t, 'users.getPublicProfile', { userId: ada.id }, moToken)).body.status).toEqual(status);
      const contacts = (await call(t, 'roster.listContacts', {}, moToken)).body as Array<{ id: string; status?: unknown }>;
      expect(contacts.find((c) => c.id === ada.id)!.status).toEqual(status);
      const frames = await t.testStore.store.db.selectFrom('stream_entries').select('payload').where('team_id', '=', team.id).where('type', '=', 'user.updated').execute();
      expect(JSON.parse(frames.at(-1)!.payload).user.status).toEqual(status);

      clock = inAnHour - 1;
      expect((await call(t, 'users.getPublicProfile', { userId: ada.id }, moToken)).body.status).toEqual(status);
      clock = inAnHour;
      expect((await call(t, 'users.getPublicProfile', { userId: ada.id }, moToken)).body.status).toBeUndefined();
      expect(((await call(t, 'roster.listContacts', {}, moToken)).body as Array<{ id: string; status?: unknown }>).find((c) => c.id === ada.id)!.status).toBeUndefined();

      await call(t, 'users.updateProfile', { statusText: 'In a meeting' }, adaToken);
      expect((await call(t, 'users.getPublicProfile', { userId: ada.id }, moToken)).body.status).toEqual({ text: 'In a meeting' });
      const cleared = await call(t, 'users.updateProfile', { statusText: '' }, adaToken);
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
      expect((await call(t, 'users.getPublicProfile', { userId: ada.id }, moToken)).body.status).toBeUndefined();
    });

    it('refuses a past expiry, an emoji that is text, an invisible status, and parts without the text', async () => {
      const team = await t.f.team();
      const ada = await t.f.person(team.id, { password: PASSWORD });
      const token = await signIn(t, ada.email!);
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ statusText: 'Out', statusExpiresAt: clock - 1 }, 'statusExpiresAt'],
        [{ statusText: 'Out', statusEmoji: 'xx' }, 'statusEmoji'],
        [{ statusText: '\u200b\u2800' }, 'statusText'],
        [{ statusText: 'x'.repeat(101) }, 'statusText'],
        [{ statusEmoji: '🌴' }, 'statusText'],
      ];
      for (const [params, parameter] of refusals) {
        const answer = await call(t, 'users.updateProfile', params, token);
        expect(answer.status, JSON.stringify(params)).toBe(400);
        expect(answer.body, JSON.stringify(params)).toMatchObject({ error: 'InvalidParameter', parameter });
      }
    });
  });
}
