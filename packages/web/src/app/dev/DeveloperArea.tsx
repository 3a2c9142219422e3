import { useCallback, useEffect, useState } from 'react';
import type { DeveloperApp } from '@aviary/protocol';
import { methods } from '../../api/client';
import { Avatar } from '../Avatar';
import { devAppPath, navigate } from '../route';
import { useWorkspace } from '../workspaceContext';
import { AppForm } from './AppForm';
import { AppWebhooks } from './AppWebhooks';
import { BotAndSecret } from './BotAndSecret';
import { DeliveryLog } from './DeliveryLog';
import { IntegrationsEditor } from './IntegrationsEditor';
import { problemOf } from './problems';
import './dashboard.css';
import { FormError } from '../FormError';
import { PageHeader } from '../PageHeader';

const TABS = [
  { id: 'settings', label: 'Settings' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'bot', label: 'Bot and secret' },
  { id: 'log', label: 'Delivery log' },
  { id: 'webhooks', label: 'Webhooks' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** The developer dashboard: the apps the person develops (`/dev`), and one app's screens (`/dev/<app>`). */
export function DeveloperArea({ appId, onMenu }: { appId: string | undefined; onMenu: () => void }) {
  const workspace = useWorkspace();
  const [apps, setApps] = useState<DeveloperApp[]>();
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string>();

  const refresh = useCallback(
    () =>
      methods.apps.listDeveloped().then(
        (answer) => setApps(answer.apps),
        (error: unknown) => setFailure(problemOf(error).message),
      ),
    [],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const app = apps?.find((candidate) => candidate.id === appId);
  const change = (id: string, fields: Partial<DeveloperApp>) => setApps((list) => list?.map((item) => (item.id === id ? { ...item, ...fields } : item)));

  return (
    <section className="directory dev-area" aria-labelledby="dev-title">
      <PageHeader titleId="dev-title" title={app ? app.name : 'My apps'} onMenu={onMenu}>
        {app ? <a href="/dev" onClick={(e) => (e.preventDefault(), navigate('/dev'))}>All my apps</a> : `The apps you develop in ${workspace.team.name}`}
      </PageHeader>
      <div className="dev-body">
        <FormError text={failure} />
        {apps === undefined ? (
          <p className="dev-hint">Loading…</p>
        ) : appId !== undefined ? (
          app ? (
            <AppScreens
              key={app.id}
              app={app}
              onChanged={(fields) => change(app.id, fields)}
              onDeleted={async () => {
                await refresh();
                await workspace.refreshApps();
                navigate('/dev');
              }}
            />
          ) : (
            <p className="page-message">This app does not exist, or you do not develop it.</p>
          )
        ) : (
          <>
            {creating ? (
              <AppForm
                onSaved={async (created) => {
                  setCreating(false);
                  await refresh();
                  await workspace.refreshApps();
                  navigate(devAppPath(created.id));
                }}
                onCancel={() => setCreating(false)}
              />
            ) : (
              <button type="button" className="primary" onClick={() => setCreating(true)}>
                New app
              </button>
            )}
            {apps.length === 0 ? (
              <p className="dev-hint">You develop no app yet.</p>
            ) : (
              <ul className="app-grid" aria-label="My apps">
                {apps.map((item) => (
                  <li key={item.id} className="app-card">
                    <Avatar name={item.name} image={item.icon ?? undefined} />
                    <div className="app-card-body">
                      <h2>
                        <a href={devAppPath(item.id)} onClick={(e) => (e.preventDefault(), navigate(devAppPath(item.id)))}>
                          {item.name}
                        </a>
                      </h2>
                      <p>{item.description || 'No description.'}</p>
                      <p className="app-status">{item.deliveryPausedAt !== null ? 'Delivery paused' : item.listenerUrl ? item.listenerUrl : 'No listener URL'}</p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function AppScreens({ app, onChanged, onDeleted }: { app: DeveloperApp; onChanged: (fields: Partial<DeveloperApp>) => void; onDeleted: () => Promise<void> }) {
  const [tab, setTab] = useState<Tab>('settings');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [failure, setFailure] = useState<string>();
  const remove = async () => {
    try {
      await methods.apps.delete({ appId: app.id });
      await onDeleted();
    } catch (error) {
      setFailure(problemOf(error).message);
    }
  };
  return (
    <>
      <div role="tablist" aria-label="App screens" className="dev-tabs">
        {TABS.map(({ id, label }) => (
          <button key={id} type="button" role="tab" id={`dev-tab-${id}`} aria-selected={tab === id} aria-controls={`dev-panel-${id}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`dev-panel-${tab}`} aria-labelledby={`dev-tab-${tab}`} className="dev-panel">
        {tab === 'settings' && (
          <>
            <AppForm app={app} onSaved={(saved) => onChanged(saved)} />
            <section className="dev-danger" aria-labelledby="dev-delete-title">
              <h2 id="dev-delete-title">Delete the app</h2>
              <p className="dev-hint">Its installs, tokens and event history go with it; its bot is deactivated.</p>
              <FormError text={failure} />
              {confirmDelete ? (
                <div className="dev-actions">
                  <button type="button" className="secondary danger" onClick={remove}>
                    Delete {app.name} for good
                  </button>
                  <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>
                    Keep it
                  </button>
                </div>
              ) : (
                <button type="button" className="secondary danger" onClick={() => setConfirmDelete(true)}>
                  Delete this app…
                </button>
              )}
            </section>
          </>
        )}
        {tab === 'integrations' && <IntegrationsEditor app={app} onSaved={(integrations) => onChanged({ integrations })} />}
        {tab === 'bot' && <BotAndSecret app={app} onChanged={onChanged} />}
        {tab === 'log' && <DeliveryLog app={app} onChanged={onChanged} />}
        {tab === 'webhooks' && <AppWebhooks app={app} />}
      </div>
    </>
  );
}
