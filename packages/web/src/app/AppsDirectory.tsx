import { useState } from 'react';
import { failureText, methods, type App } from '../api/client';
import { AppHomeButton } from './AppHome';
import { Avatar } from './Avatar';
import './people.css';
import { useWorkspace } from './workspaceContext';
import { PageHeader } from './PageHeader';

/**
 * The team's apps: install (the listener's refusal shown as the server words it), uninstall, disable and
 * enable for oneself; a team admin also switches an app off and on for the whole team.
 */
export function AppsDirectory({ onMenu }: { onMenu: () => void }) {
  const workspace = useWorkspace();
  return (
    <section className="directory" aria-labelledby="directory-title">
      <PageHeader titleId="directory-title" title="App directory" onMenu={onMenu}>
        The apps of {workspace.team.name}
      </PageHeader>
      {workspace.apps.length === 0 ? (
        <p className="page-message">This team has no apps yet.</p>
      ) : (
        <ul className="app-grid">
          {workspace.apps.map((app) => (
            <AppCard key={app.id} app={app} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AppCard({ app }: { app: App }) {
  const workspace = useWorkspace();
  const [busy, setBusy] = useState(false);
  const run = async (change: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await change();
      await workspace.refreshApps();
      workspace.toast(done);
    } catch (error) {
      workspace.toast(failureText(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  const status = app.disabledByTeam ? 'Disabled by the team' : !app.installed ? 'Not installed' : app.disabledByUser ? 'Installed, disabled' : 'Installed';
  return (
    <li className="app-card">
      <Avatar name={app.name} image={app.icon} />
      <div className="app-card-body">
        <h2>{app.name}</h2>
        <p>{app.description || 'No description.'}</p>
        {app.integrations.slashCommands.length > 0 && (
          <p className="app-commands">{app.integrations.slashCommands.map((command) => `/${command.name}`).join(' ')}</p>
        )}
        <p className="app-status">{status}</p>
        {!app.installed && app.notInstallableBecause !== undefined && <p className="app-not-installable">Cannot be installed yet: {app.notInstallableBecause}.</p>}
      </div>
      <div className="app-card-actions">
        {!app.installed ? (
          <button type="button" className="primary" disabled={busy || !app.installable || app.disabledByTeam} onClick={() => run(() => methods.apps.install({ appId: app.id }), `${app.name} is installed.`)}>
            Install
          </button>
        ) : (
          <>
            <AppHomeButton app={app} />
            <button type="button" className="secondary" disabled={busy} onClick={() => run(() => (app.disabledByUser ? methods.apps.enable : methods.apps.disable)({ appId: app.id }), `${app.name} is ${app.disabledByUser ? 'enabled' : 'disabled'}.`)}>
              {app.disabledByUser ? 'Enable' : 'Disable'}
            </button>
            <button type="button" className="secondary danger" disabled={busy} onClick={() => run(() => methods.apps.uninstall({ appId: app.id }), `${app.name} is uninstalled.`)}>
              Uninstall
            </button>
          </>
        )}
      </div>
      {workspace.me.role === 'admin' && (
        <div className="admin-switch">
          <span className="admin-switch-label">Team admin</span>
          <button
            type="button"
            className={app.disabledByTeam ? 'secondary' : 'secondary danger'}
            disabled={busy}
            onClick={() => run(() => (app.disabledByTeam ? methods.apps.enableForTeam : methods.apps.disableForTeam)({ appId: app.id }), `${app.name} is ${app.disabledByTeam ? 'enabled' : 'disabled'} for the whole team.`)}
          >
            {app.disabledByTeam ? 'Enable for the team' : 'Disable for the team'}
          </button>
        </div>
      )}
    </li>
  );
}
