import { expect, it } from 'vitest';
import { cliActor } from '../../src/core/audit/record.js';
import { changeChannel } from '../../src/core/commands/administerChannels.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { setAppDisabledByTeam } from '../../src/core/commands/installs.js';
import { changeSignInSettings } from '../../src/core/commands/signInSettings.js';
import { setBroadcastMentionLimit, updateTeamSettings } from '../../src/core/commands/teams.js';
import { setTeamIcon } from '../../src/core/pictures/ownerPictures.js';
import type { UsersTable } from '../../src/store/schema.js';
import { forEachDialect } from '../helpers/server.js';

/**
 * An admin's change checks, in its own transaction, that its admin still is one: the call was
 * authenticated with the person's row as it was then, and a demotion or deactivation may have committed
 * since. Each command is called here with such a row (an admin a moment ago) and must change nothing.
 */
forEachDialect('admin changes check the admin’s standing as they are made', (t) => {
  /** A team with an admin, a channel and an app, and that admin's row as it was before `lose` (if given). */
  async function scene(lose?: Partial<UsersTable>) {
    const team = await t().f.team();
    const admin = await t().f.person(team.id, { role: 'admin' });
    await t().f.person(team.id, { role: 'admin' });
    const { channel } = await createChannel(t().server.ctx, { user: admin, appId: null }, { name: 'plans', members: [] });
    const app = await t().f.app(team.id, admin.id);
    const db = t().testStore.store.db;
    if (lose) await db.updateTable('users').set(lose).where('id', '=', admin.id).execute();
    return { team: await db.selectFrom('teams').select(['id', 'name', 'broadcast_mention_limit']).where('id', '=', team.id).executeTakeFirstOrThrow(), admin, channel, app };
  }

  const noLongerAdmin = { code: 'PermissionDenied', message: 'You are no longer an active admin of this team.' };

  for (const [lost, lose] of [
    ['demoted', { role: 'user' }],
    ['deactivated', { deactivated_at: 1 }],
  ] as const) {
    it(`refuses every kind of admin change from an admin ${lost} since, and changes nothing`, async () => {
      const { team, admin, channel, app } = await scene(lose);
      const ctx = t().server.ctx;
      const actor = { admin, address: null };
      const person = { userId: admin.id, address: null };
      await expect(changeChannel(ctx, actor, { channelId: channel.id, change: { kind: 'archive' } })).rejects.toMatchObject(noLongerAdmin);
      await expect(setAppDisabledByTeam(ctx, actor, { appId: app.id, disabled: true })).rejects.toMatchObject(noLongerAdmin);
      await expect(updateTeamSettings(ctx, person, { teamId: team.id, name: 'Taken over' })).rejects.toMatchObject(noLongerAdmin);
      await expect(setBroadcastMentionLimit(ctx, person, { teamId: team.id, limit: 3 })).rejects.toMatchObject(noLongerAdmin);
      await expect(setTeamIcon(ctx, actor, { fileId: null })).rejects.toMatchObject(noLongerAdmin);
      await expect(changeSignInSettings(ctx, person, { teamId: team.id, passwordEnabled: true })).rejects.toMatchObject(noLongerAdmin);

      const db = t().testStore.store.db;
      expect(await db.selectFrom('channels').select('archived_at').where('id', '=', channel.id).executeTakeFirstOrThrow()).toEqual({ archived_at: null });
      expect(await db.selectFrom('apps').select('disabled_by_team').where('id', '=', app.id).executeTakeFirstOrThrow()).toEqual({ disabled_by_team: 0 });
      expect(await db.selectFrom('teams').select(['id', 'name', 'broadcast_mention_limit']).where('id', '=', team.id).executeTakeFirstOrThrow()).toEqual(team);
      expect(await db.selectFrom('audit_log').select('action').where('team_id', '=', team.id).where('actor_user_id', '=', admin.id).execute()).toEqual([]);
    });
  }

  it('lets an admin who still is one make the same changes, and the CLI’s operator too', async () => {
    const { team, admin, channel, app } = await scene();
    const ctx = t().server.ctx;
    expect(await changeChannel(ctx, { admin, address: null }, { channelId: channel.id, change: { kind: 'archive' } })).toMatchObject({ id: channel.id });
    await setAppDisabledByTeam(ctx, { admin, address: null }, { appId: app.id, disabled: true });
    expect(await updateTeamSettings(ctx, { userId: admin.id, address: null }, { teamId: team.id, name: 'Renamed' })).toMatchObject({ name: 'Renamed' });
    expect(await updateTeamSettings(ctx, cliActor, { teamId: team.id, name: 'Renamed again' })).toMatchObject({ name: 'Renamed again' });
  });

  it('reads a person’s role as their channel is created: a member made a guest since may not, where only members may', async () => {
    const team = await t().f.team();
    const pat = await t().f.person(team.id);
    const db = t().testStore.store.db;
    await db.updateTable('teams').set({ who_may_create_channels: 'members' }).where('id', '=', team.id).execute();
    // Pat's row as the call was authenticated with it; since, Pat was made a guest.
    await db.updateTable('users').set({ role: 'guest' }).where('id', '=', pat.id).execute();
    await expect(createChannel(t().server.ctx, { user: pat, appId: null }, { name: 'side-project', members: [] })).rejects.toMatchObject({ code: 'PermissionDenied' });
    expect(await db.selectFrom('channels').select('id').where('team_id', '=', team.id).where('name', '=', 'side-project').execute()).toEqual([]);
  });
});
