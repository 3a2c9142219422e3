import type { ReactNode } from 'react';
import { methods, type App } from '../api/client';
import { useWorkspace } from './workspaceContext';

/**
 * An app's home tab (its `appHome` integration, an Aviary extension): opening it sends client.pressButton
 * with `button: "appHome"`, and the server answers the widget's signed URL, which the workspace shows in
 * its widget panel beside the conversation. The event's chat is the person's own (a home belongs to no chat).
 */
/** Whether the person can open the app's home: it has one, they installed it, and nobody switched it off. */
const hasHome = (app: App): boolean => app.integrations.appHome !== undefined && app.installed && !app.disabledByUser && !app.disabledByTeam;

export function AppHomeButton(props: { app: App; className?: string; children?: ReactNode }) {
  const { app } = props;
  const workspace = useWorkspace();
  if (!hasHome(app)) return null;
  const chat = workspace.me.id;
  return (
    <button
      type="button"
      className={props.className ?? 'secondary'}
      onClick={() => workspace.act(() => methods.interactions.pressButton({ appId: app.id, button: 'appHome', chat }), { appId: app.id, chat })}
    >
      {props.children ?? `Open ${app.name}`}
    </button>
  );
}

/** The sidebar's entries for the apps with a home tab the person can open. */
export function AppHomeLinks() {
  const workspace = useWorkspace();
  return (
    <>
      {workspace.apps.filter(hasHome).map((app) => (
        <li key={`home-${app.id}`}>
          <AppHomeButton app={app} className="sidebar-item">
            <span className="sidebar-icon" aria-hidden="true">
              ⌂
            </span>
            {app.name}
          </AppHomeButton>
        </li>
      ))}
    </>
  );
}
