import { invalidParameter } from '../../errors.js';
import { lockRows } from '../../store/rows/locks.js';
import { isSqlite } from '../../store/rows/streamEntries.js';
import { byPerson, recordAudit } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import type { PersonAt } from './accounts.js';
import { keepAnAdmin, revokeAllPersonalTokens } from './internal/personRows.js';

/**
 * A person deactivates their own account: their sessions go, their app tokens stop working (a
 * deactivated person's token is refused, api/caller.ts), and every process closes their streams at once
 * (credentialsEnded). Their messages stay. The team's last active admin cannot: the team would have none.
 * The caller checked the password against `person`'s row; the role and password are read again here,
 * after the team's row (which role changes take first) and the person's (which a reset holds): a
 * promotion or a reset that committed meanwhile counts.
 */
export async function deactivateOwnAccount(ctx: CommandContext, { person, address }: PersonAt, _params: Record<string, never>): Promise<void> {
  await runChange(ctx, async (tx, effects) => {
    await lockRows(tx, 'teams', 'id', [person.team_id], 'update');
    let standing = tx.selectFrom('users').select('role').where('id', '=', person.id).where('deactivated_at', 'is', null).where('password_hash', '=', person.password_hash ?? '');
    if (!isSqlite(tx)) standing = standing.forUpdate();
    const current = await standing.executeTakeFirst();
    if (!current) throw invalidParameter('password', 'password is no longer your current password: it was changed or reset meanwhile. Nothing was changed.');
    if (current.role === 'admin') await keepAnAdmin(tx, person.team_id, person.id, 'Deactivating your account as the last admin', undefined);
    const at = ctx.now();
    await tx.updateTable('users').set({ deactivated_at: at }).where('id', '=', person.id).execute();
    await tx.deleteFrom('sessions').where('user_id', '=', person.id).execute();
    await revokeAllPersonalTokens(tx, person.id, at);
    await recordAudit(tx, { ...byPerson(person, address), at, action: 'user.deactivated', target: { kind: 'user', id: person.id }, details: { by: 'self' } });
    effects.add({ kind: 'credentialsEnded', notice: { userId: person.id } });
  });
}
