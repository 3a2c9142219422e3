// The peers bench's Aviary data: a team of a sender and `receivers` people, each with a session, and one
// public channel of them all. On SQLite in `dataDir`, or on PostgreSQL at `databaseUrl`.
import { createChannel } from '../packages/server/src/core/commands/channels.js';
import { createTeam } from '../packages/server/src/core/commands/people.js';
import { hashToken, newSecret, newUserId } from '../packages/server/src/store/ids.js';
import { insertUser } from '../packages/server/src/store/rows/users.js';
import { openStore } from '../packages/server/src/store/store.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

export async function seedPeersChannel(where: { dataDir: string; databaseUrl?: string }, receivers: number): Promise<{ senderSession: string; sessions: string[]; channelId: string }> {
  const store = openStore(where);
  try {
    await store.migrate();
    const db = store.db;
    const now = Date.now();
    const team = await createTeam(storeContext(db, () => now), cliActor, { name: 'Peers bench' });
    const sessions: string[] = [];
    const users = await db.transaction().execute(async (tx) => {
      const made = [];
      for (let i = 0; i <= receivers; i++) {
        const user = await insertUser(tx, { id: newUserId(), team_id: team.id, email: `peer${i}@example.test`, first_name: 'Peer', last_name: String(i), created_at: now });
        const token = newSecret('as_s_');
        await tx.insertInto('sessions').values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + 86_400_000 }).execute();
        sessions.push(token);
        made.push(user);
      }
      return made;
    });
    const { channel } = await createChannel(storeContext(db, () => now), { user: users[0], appId: null }, { name: 'all-hands', type: 'public', members: users.slice(1).map((user) => user.id) });
    return { senderSession: sessions[0], sessions: sessions.slice(1), channelId: channel.id };
  } finally {
    await store.close();
  }
}
