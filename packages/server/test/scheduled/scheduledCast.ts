import { hashToken, newSecret } from '../../src/store/ids.js';
import type { Db } from '../../src/store/store.js';

/** A clock the test moves by hand: the server's ctx.now and the factories' alike; never the real date. */
export function handClock(start = 1_900_000_000_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/** A session for `userId` as signing in makes one, without the password's cost: its Bearer token. */
export async function sessionFor(db: Db, userId: string, now: number): Promise<string> {
  const token = newSecret('as_s_');
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: now + 86_400_000, user_agent: null, client_address: null, last_seen_at: now })
    .execute();
  return token;
}
