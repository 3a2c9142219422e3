import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteApp, removeInstall, setAppDisabledForTeam, setInstallDisabled } from '../../src/core/commands/apps.js';
import { deactivatePerson } from '../../src/core/commands/people.js';
import type { Store } from '../../src/store/store.js';
import { tokenOutcome } from '../apps/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * A running server may keep resolved tokens (SQLite), so every change that bears on a token is made here
 * through a second store on the same data — another process, as the CLI beside a server is — right after
 * the token was used, and must show at the token's very next use.
 */
forEachDialect('token changes made by another process', (t) => {
  let otherProcess: Store;
  beforeAll(() => {
    otherProcess = t().testStore.reopen();
  });
  afterAll(() => otherProcess.close());

  const scene = async () => {
    const { app, people } = await teamWithApp(t().testStore.store.db, 2);
    const [alice] = people;
    expect(await tokenOutcome(t(), alice.token)).toBe('ok');
    return { app, alice };
  };

  describe('take effect at once', () => {
    it('deactivating the person', async () => {
      const { alice } = await scene();
      await deactivatePerson(storeContext(otherProcess.db), cliActor, { userId: alice.id });
      expect(await tokenOutcome(t(), alice.token)).toBe('InvalidToken');
    });

    it('uninstalling the app', async () => {
      const { app, alice } = await scene();
      await removeInstall(storeContext(otherProcess.db), { id: alice.id }, { appId: app.id });
      expect(await tokenOutcome(t(), alice.token)).toBe('InvalidToken');
    });

    it('disabling by the person and by the team, and enabling again', async () => {
      const { app, alice } = await scene();
      await setInstallDisabled(storeContext(otherProcess.db), { id: alice.id }, { appId: app.id, disabled: true });
      expect(await tokenOutcome(t(), alice.token)).toBe('AppDisabled:user');
      await setInstallDisabled(storeContext(otherProcess.db), { id: alice.id }, { appId: app.id, disabled: false });
      expect(await tokenOutcome(t(), alice.token)).toBe('ok');
      await setAppDisabledForTeam(storeContext(otherProcess.db), cliActor, { appId: app.id, disabled: true });
      expect(await tokenOutcome(t(), alice.token)).toBe('AppDisabled:team');
      await setAppDisabledForTeam(storeContext(otherProcess.db), cliActor, { appId: app.id, disabled: false });
      expect(await tokenOutcome(t(), alice.token)).toBe('ok');
    });

    it('deleting the app', async () => {
      const { app, alice } = await scene();
      await deleteApp(storeContext(otherProcess.db), cliActor, { appId: app.id });
      expect(await tokenOutcome(t(), alice.token)).toBe('InvalidToken');
    });
  });
});
