import { useCallback, useEffect, useId, useState } from 'react';
import { failureText, methods, type App } from '../api/client';
import { useWorkspace } from './workspaceContext';

/** Every app of the team, with the admin's switch that disables it for everyone (apps.disableForTeam). */
export function AdminAppsSection() {
  const workspace = useWorkspace();
  const [apps, setApps] = useState<App[]>();
  const [problem, setProblem] = useState<string>();
  const id = useId();

  const load = useCallback(async () => {
    try {
      setApps((await methods.apps.listDirectory({})).apps);
    } catch (failure) {
      setProblem(failureText(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const toggle = async (app: App) => {
    setProblem(undefined);
    try {
      if (app.disabledByTeam) await methods.apps.enableForTeam({ appId: app.id });
      else await methods.apps.disableForTeam({ appId: app.id });
      workspace.toast(app.disabledByTeam ? `${app.name} is enabled for the team.` : `${app.name} is disabled for the team.`);
    } catch (failure) {
      setProblem(failureText(failure));
    }
    await load();
  };

  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Apps</h3>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {apps === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : apps.length === 0 ? (
        <p className="field-hint">The team has no apps yet.</p>
      ) : (
        <ul className="session-list" aria-label="Apps">
          {apps.map((app) => (
            <li key={app.id} className="session-row admin-row">
              <span className="session-text">
                <span className="session-device">
                  {app.name}
                  {app.disabledByTeam && <span className="admin-badge"> · disabled for the team</span>}
                </span>
                <span className="field-hint">{app.description || 'No description'}</span>
              </span>
              <span className="admin-actions">
                <button type="button" className="secondary" aria-label={`${app.disabledByTeam ? 'Enable' : 'Disable'} ${app.name} for the team`} onClick={() => void toggle(app)}>
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
