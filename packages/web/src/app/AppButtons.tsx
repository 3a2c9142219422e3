import type { ReactNode } from 'react';
import { methods, type App } from '../api/client';
import { useWorkspace } from './workspaceContext';

type Integration = 'launcherButton' | 'chatTabButton' | 'attachmentPickerButton' | 'messageAction';

/** The apps whose integration the person can use: installed, with neither their own nor the team's switch off. */
export const appsWith = (apps: App[], integration: Integration): App[] =>
  apps.filter((app) => app.installed && !app.disabledByUser && !app.disabledByTeam && app.integrations[integration]);

/** An app's own button in a chat (a chat tab, an attachment picker): it sends client.pressButton and follows the answer. */
export function ChatButton(props: { app: App; button: 'chatTabButton' | 'attachmentPickerButton'; chat: string; className: string; children: ReactNode }) {
  const { app, button, chat } = props;
  const workspace = useWorkspace();
  return (
    <button type="button" className={props.className} onClick={() => workspace.act(() => methods.interactions.pressButton({ appId: app.id, button, chat }), { appId: app.id, chat })}>
      {props.children}
    </button>
  );
}
