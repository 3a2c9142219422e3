import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../store/store.js';

/**
 * What an import checks before it commits, over the rows it wrote (the store's foreign keys check the
 * rest: a membership's channel and person, an app's developer, an install's app): that every message
 * was sent by someone of the team into one of its channels or a direct chat, and that the team's system
 * bot, the apps' bots and the files' uploaders are among its users, and that messages carry only files of
 * the team. Answers the first problem, or undefined.
 */
export async function consistencyProblem(tx: Tx, teamId: string): Promise<string | undefined> {
  const checks: Array<[string, RawBuilder<{ count: number | string }>]> = [
    [
      'messages sent by no user of the team',
      sql`select count(*) as count from messages m where m.team_id = ${teamId}
        and not exists (select 1 from users u where u.id = m.from_user_id and u.team_id = ${teamId})`,
    ],
    [
      'messages in no channel of the team',
      sql`select count(*) as count from messages m where m.team_id = ${teamId} and m.chat_key not like '%|%'
        and not exists (select 1 from channels c where c.id = m.chat_key and c.team_id = ${teamId})`,
    ],
    [
      'files uploaded by no user of the team',
      sql`select count(*) as count from files f where f.team_id = ${teamId}
        and not exists (select 1 from users u where u.id = f.uploaded_by and u.team_id = ${teamId})`,
    ],
    [
      'links of messages to files that are not the team\'s (message-files.jsonl)',
      sql`select count(*) as count from message_files mf join messages m on m.uid = mf.message_uid where m.team_id = ${teamId}
        and not exists (select 1 from files f where f.id = mf.file_id and f.team_id = ${teamId})`,
    ],
    [
      'apps whose bot is no user of the team',
      sql`select count(*) as count from apps a where a.team_id = ${teamId} and a.bot_user_id is not null
        and not exists (select 1 from users u where u.id = a.bot_user_id and u.team_id = ${teamId})`,
    ],
    [
      'a system bot that is no user of the team',
      sql`select count(*) as count from teams t where t.id = ${teamId} and t.system_user_id is not null
        and not exists (select 1 from users u where u.id = t.system_user_id and u.team_id = ${teamId})`,
    ],
  ];
  for (const [what, query] of checks) {
    const { rows } = await query.execute(tx);
    const count = Number(rows[0].count);
    if (count > 0) return `${count} ${what}.`;
  }
  return undefined;
}
