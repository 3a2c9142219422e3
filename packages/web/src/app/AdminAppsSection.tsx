import { useId } from 'react';
import type { AdminApp } from '@aviary/protocol';
import { methods } from '../api/client';
import { Avatar } from './Avatar';
import { dayLabel, formatTime, fullName } from './format';
import { AdminProblem, useAdminList } from './useAdminList';
import { useWorkspace } from './workspaceContext';

const listApps = async () => (await methods.admin.listApps({})).apps;

/**
 * Every app of the team (admin.listApps): who made it, who installed it and when, and the admin's switch
 * that disables it for everyone (apps.disableForTeam).
 */
export function AdminAppsSection() {
  const workspace = useWorkspace();
  const { items: apps, problem, act } = useAdminList(listApps);
  const id = useId();
  const { timezone } = workspace.me;
  const when = (at: number) => `${dayLabel(at, timezone, Date.now())} at ${formatTime(at, timezone)}`;
  const toggle = (app: AdminApp) =>
    act(
      () => (app.disabledByTeam ? methods.apps.enableForTeam({ appId: app.id }) : methods.apps.disableForTeam({ appId: app.id })),
      app.disabledByTeam ? `${app.name} is enabled for the team.` : `${app.name} is disabled for the team.`,
    );

  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Apps</h3>
      <AdminProblem problem={problem} />
      {apps === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : apps.length === 0 ? (
        <p className="field-hint">The team has no apps yet.</p>
      ) : (
        <ul className="session-list" aria-label="Apps">
          {apps.map((app) => (
            <li key={app.id} className="session-row admin-row">
              <span className="admin-app">
                <Avatar name={app.name} image={app.icon} />
                <span className="session-text">
                  <span className="session-device">
                    {app.name}
                    {app.disabledByTeam && <span className="admin-badge"> · disabled for the team</span>}
                  </span>
                  <span className="field-hint">
                    {app.description || 'No description'} · made by {fullName(app.developer)} · added {when(app.createdAt)}
                  </span>
                  {app.installs.length === 0 ? (
                    <span className="field-hint">Nobody has installed it.</span>
                  ) : (
                    <details>
                      <summary className="field-hint">
                        Installed by {app.installs.length} {app.installs.length === 1 ? 'person' : 'people'}
                      </summary>
                      <ul className="admin-app-installs" aria-label={`Installs of ${app.name}`}>
                        {app.installs.map((install) => (
                          <li key={install.userId}>
                            {fullName(install)}, {when(install.installedAt)}
                            {install.disabledByUser && <span className="admin-badge"> · disabled by them</span>}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </span>
              </span>
              <span className="admin-actions">
                <button type="button" className="secondary" aria-label={`${app.disabledByTeam ? 'Enable' : 'Disable'} for team: ${app.name}`} onClick={() => void toggle(app)}>
                  {app.disabledByTeam ? 'Enable for team' : 'Disable for team'}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
