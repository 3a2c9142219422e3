import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { newUserId } from '../../store/ids.js';
import type { CommandContext } from '../context.js';
import { insertTeam } from './internal/teamRows.js';
import { insertUser } from '../../store/rows/users.js';
import { runChange } from '../effects/effects.js';
import { hashPassword } from '../passwords.js';
import { checkStatusChange } from '../personStatus.js';
import { checkPersonFields, checkProfileChange, type PersonFieldInput } from '../personFields.js';
import { userUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import type { AuditActor } from '../audit/record.js';
import { deactivatePersonIn } from './internal/personRows.js';

/** A new team, by the CLI (`aviary team create`) or seeding: `actor` is then `cliActor`. */
export async function createTeam(ctx: CommandContext, actor: AuditActor, { name }: { name: string }): Promise<{ id: string }> {
  const now = ctx.now();
  return runChange(ctx, (tx) => insertTeam(tx, { name, now }));
}

/** A new person: their team, and their fields, which createPerson checks (core/personFields.ts). */
export interface NewPerson extends PersonFieldInput {
  teamId: string;
  /** false: the person has yet to show they read mail at their email (a sign-up by invite link); by default verified. */
  emailVerified?: boolean;
}

/**
 * A new person, by the CLI (`aviary user create`) or seeding (`actor`: `cliActor`), or by a sign-in through
 * the team's provider (`actor`: nobody yet, from the browser's address).
 */
export async function createPerson(ctx: CommandContext, actor: AuditActor, input: NewPerson): Promise<UsersTable> {
  const fields = checkPersonFields(input);
  const passwordHash = fields.password !== undefined ? await hashPassword(fields.password) : null;
  const now = ctx.now();
  return runChange(ctx, (tx) => insertUser(tx, {
    id: newUserId(),
    team_id: input.teamId,
    email: fields.email,
    first_name: fields.firstName,
    last_name: fields.lastName,
    role: fields.role ?? 'user',
    timezone: fields.timezone ?? 'UTC',
    profile_image: fields.profileImage ?? null,
    password_hash: passwordHash,
    email_unverified: input.emailVerified === false ? 1 : 0,
    created_at: now,
  }));
}

/**
 * Deactivates a person: their sessions end, their tokens stop working, and every process closes their
 * streams at once. Their messages stay. Reactivating them does not bring the sessions back.
 */
export async function deactivatePerson(ctx: CommandContext, actor: AuditActor, { userId }: { userId: string }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, (tx, effects) => deactivatePersonIn(tx, effects, userId, now, actor));
}

/**
 * A person changes their own name or timezone; the fields are checked as createPerson checks them. The
 * team's streams hear of it in the same transaction (`user.updated`), so every page shows the new name.
 */
export async function updateProfile(
  ctx: CommandContext,
  person: UsersTable,
  input: { firstName?: unknown; lastName?: unknown; timezone?: unknown; statusText?: string | null; statusEmoji?: string | null; statusExpiresAt?: number },
): Promise<UsersTable> {
  const change = checkProfileChange(input);
  const status = checkStatusChange(input, ctx.now());
  const values = {
    ...(status ?? {}),
    ...(change.firstName !== undefined ? { first_name: change.firstName } : {}),
    ...(change.lastName !== undefined ? { last_name: change.lastName } : {}),
    ...(change.timezone !== undefined ? { timezone: change.timezone } : {}),
  };
  const read = (db: Db) => db.selectFrom('users').selectAll().where('id', '=', person.id).executeTakeFirstOrThrow();
  if (Object.keys(values).length === 0) return read(ctx.db);
  return runChange(ctx, async (tx, effects) => {
    await tx.updateTable('users').set(values).where('id', '=', person.id).execute();
    const row = await read(tx);
    await recordStreamEntries(tx, effects, row.team_id, [await userUpdated(tx, row, ctx.now())], ctx.now());
    return row;
  });
}
