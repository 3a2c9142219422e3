import type { PlainIds } from '@aviary/protocol';
import type { AviaryClient } from '@aviary/sdk';
import { AviaryApiError } from '@aviary/sdk';
import { expect } from 'vitest';
import type { ConfigInput } from '../../src/config.js';
import { teamWithApp } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';

/** Chat tests send many messages to one recipient; the rate limits have their own tests. */
export const roomyRateLimits: ConfigInput = {
  rateLimits: { message: { rate: 10_000, burst: 10_000 }, messagePerRecipient: { rate: 10_000, burst: 10_000 } },
};

/** Well-formed ids that nobody has. */
export const NOBODY = 'u:aaaaaaaaaaaaaaaa';
export const NO_CHANNEL = 'g:aaaaaaaaaaaaaaaa';

export interface Actor {
  id: string;
  token: string;
  client: AviaryClient<PlainIds>;
}

/**
 * The usual cast of a chat test, all new rows: Alice, Bob and Carol installed the app; Dave is a
 * teammate who did not; the app's bot; Olga from another team; and a private channel of Alice
 * (moderator) and Bob.
 */
export async function chatCast(t: TestServer) {
  const db = t.testStore.store.db;
  const { team, app, people, f } = await teamWithApp(db, 3);
  const actor = (id: string, token: string): Actor => ({ id, token, client: t.client(token) });
  const [alice, bob, carol] = people.map((person) => actor(person.id, person.token));
  const dave = await f.person(team.id);
  const bot = await f.bot(app.id);
  const other = await teamWithApp(db, 1);
  const { id: channelId } = await alice.client.channels.create({ name: 'general', members: [bob.id] });
  return {
    team,
    app,
    f,
    alice,
    bob,
    carol,
    dave,
    bot: actor(bot.botUserId, bot.botToken),
    olga: actor(other.people[0].id, other.people[0].token),
    otherApp: other.app,
    channelId,
  };
}

/** The API error a call failed with (the test fails if it succeeded). */
export async function failure(call: Promise<unknown>): Promise<AviaryApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AviaryApiError);
  return error as AviaryApiError;
}

/** Asserts an error body: code, status, the offending parameter and words its description must hold. */
export async function expectApiError(
  call: Promise<unknown>,
  expected: { error: string; status?: number; parameter?: string; description?: RegExp },
): Promise<void> {
  const error = await failure(call);
  expect(error.body).toMatchObject({ error: expected.error, ...(expected.parameter ? { parameter: expected.parameter } : {}) });
  expect(error.status).toBe(expected.status ?? 400);
  if (expected.description) expect(error.body.description).toMatch(expected.description);
}
