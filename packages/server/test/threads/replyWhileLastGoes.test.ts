import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteMessage } from '../../src/core/commands/deleteMessage.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { postgresTestUrl } from '../helpers/dialects.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { launchThread } from './launchThread.js';

/**
 * Holds a change's transaction right after its first write of `table` has run, until `release()`: a
 * pause between two of its statements, where a real server may be held up by its load. Plugged into the
 * change's own store connection (Kysely's plugin), nothing else of it differs.
 */
class PauseAfterWrite implements KyselyPlugin {
  private readonly marked = new WeakSet<object>();
  private done = false;
  private reach!: () => void;
  readonly reached = new Promise<void>((resolve) => (this.reach = resolve));
  release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly table: string) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (!this.done && node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === this.table) this.marked.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (!this.marked.has(queryId) || this.done) return result;
    this.done = true;
    this.reach();
    await this.released;
    return result;
  }
}

/**
 * PostgreSQL: a reply sent while the thread's only reply is deleted. The reply's change made sure of the
 * thread's summary (there already), then counted one more in it with a second statement. Between the
 * two, the deletion counted no reply left (the new one not yet committed) and removed the summary; the
 * count found none, and the send failed with a 500: the reply was lost. Now one statement makes the
 * summary or counts one more in it, and holds it: the deletion waits, then counts the new reply. The test
 * pauses the send right after its write of the summary (PauseAfterWrite), runs the deletion, and lets the
 * send go once the deletion has finished or waits on it (a session of its own watching the locks).
 */
onPostgres('a reply sent while the thread’s last reply is deleted', (suite) => {
  const t = () => suite().t;
  const watcher = new pg.Client({ connectionString: postgresTestUrl });
  beforeAll(() => watcher.connect());
  afterAll(() => watcher.end());
  /** Whether some session waits on one that is idle in a transaction whose last statement wrote the thread's summary (the paused send). */
  const waitsOnPausedSend = async () =>
    (
      await watcher.query(
        `select 1 from pg_stat_activity w where exists (select 1 from pg_stat_activity s where s.pid = any(pg_blocking_pids(w.pid))
           and s.state = 'idle in transaction' and s.query like 'insert into "threads"%')`,
      )
    ).rowCount! > 0;

  it('keeps the reply, and a summary that counts it', async () => {
    const { ctx, alice, bob, channel, root, first } = await launchThread(t());

    const settled = new Set<string>();
    const outcome = (name: string, running: Promise<unknown>) =>
      running.then(() => 'done', (error: unknown) => error).finally(() => settled.add(name));
    const pause = new PauseAfterWrite('threads');
    const sending = outcome('send', sendMessage({ ...ctx, db: ctx.db.withPlugin(pause) }, { user: alice, appId: null }, { to: channel.id, text: 'Then Friday it is', threadParent: root.uid }));
    await pause.reached;
    const deleting = outcome('delete', deleteMessage(ctx, { user: bob, appId: null, kind: 'person' }, { messageUid: first.uid }));
    await expect.poll(async () => settled.has('delete') || (await waitsOnPausedSend())).toBe(true);
    pause.release();
    expect({ send: await sending, delete: await deleting }).toEqual({ send: 'done', delete: 'done' });

    const db = t().testStore.store.db;
    const replies = await db.selectFrom('messages').select('text').where('thread_parent', '=', root.uid).execute();
    expect(replies).toEqual([{ text: 'Then Friday it is' }]);
    const summary = await db.selectFrom('threads').select(['reply_count', 'participants']).where('parent_uid', '=', root.uid).executeTakeFirstOrThrow();
    expect({ ...summary, participants: JSON.parse(summary.participants) }).toEqual({ reply_count: 1, participants: [alice.id] });
  });
});
