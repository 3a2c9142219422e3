import { useState } from 'react';
import { api, type App } from '../api/client';
import { Avatar } from './Avatar';
import { useWorkspace } from './workspaceContext';

/** The team's apps: install (the listener's refusal shown as the server words it), uninstall, disable and enable for oneself. */
export function AppsDirectory({ onMenu }: { onMenu: () => void }) {
  const workspace = useWorkspace();
  return (
    <section className="directory" aria-labelledby="directory-title">
      <header className="conversation-header">
        <button type="button" className="icon-button menu-button" aria-label="Show conversations" onClick={onMenu}>
          ☰
        </button>
        <div className="conversation-heading">
          <h1 id="directory-title">App directory</h1>
          <p className="conversation-purpose">The apps of {workspace.team.name}</p>
        </div>
      </header>
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
      workspace.toast((error as Error).message, 'error');
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
      </div>
      <div className="app-card-actions">
        {!app.installed ? (
          <button type="button" className="primary" disabled={busy || !app.installable || app.disabledByTeam} onClick={() => run(() => api.install(app.id), `${app.name} is installed.`)}>
            Install
          </button>
        ) : (
          <>
            <button type="button" className="secondary" disabled={busy} onClick={() => run(() => api.setEnabled(app.id, app.disabledByUser), `${app.name} is ${app.disabledByUser ? 'enabled' : 'disabled'}.`)}>
              {app.disabledByUser ? 'Enable' : 'Disable'}
            </button>
            <button type="button" className="secondary danger" disabled={busy} onClick={() => run(() => api.uninstall(app.id), `${app.name} is uninstalled.`)}>
              Uninstall
            </button>
          </>
        )}
      </div>
    </li>
  );
}
