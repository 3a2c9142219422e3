import { byPerson, recordAudit } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import type { PersonAt } from './accounts.js';
import { keepAnAdmin, revokeAllPersonalTokens } from './internal/personRows.js';

/**
 * A person deactivates their own account: their sessions go, their app tokens stop working (a
 * deactivated person's token is refused, api/caller.ts), and every process closes their streams at once
 * (credentialsEnded). Their messages stay. The team's last active admin cannot: the team would have none.
 */
export async function deactivateOwnAccount(ctx: CommandContext, { person, address }: PersonAt, _params: Record<string, never>): Promise<void> {
  await runChange(ctx, async (tx, effects) => {
    if (person.role === 'admin') await keepAnAdmin(tx, person.team_id, person.id, 'Deactivating your account as the last admin', undefined);
    const now = ctx.now();
    await tx.updateTable('users').set({ deactivated_at: now }).where('id', '=', person.id).execute();
    await tx.deleteFrom('sessions').where('user_id', '=', person.id).execute();
    await revokeAllPersonalTokens(tx, person.id, now);
    await recordAudit(tx, { ...byPerson(person, address), at: now, action: 'user.deactivated', target: { kind: 'user', id: person.id }, details: { by: 'self' } });
    effects.add({ kind: 'credentialsEnded', notice: { userId: person.id } });
  });
}
