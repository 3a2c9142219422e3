import { methods } from '../api/client';
import { appsWith } from './AppButtons';
import { MAX_SELECTED, type Selection } from './useSelection';
import { useWorkspace } from './workspaceContext';

/**
 * While messages are being picked: how many, the message actions of the person's apps to run on all of
 * them at once (one client.messageAction with every uid), and a way out (the button or Escape).
 */
export function SelectionBar({ selection, chat }: { selection: Selection; chat: string }) {
  const workspace = useWorkspace();
  const actions = appsWith(workspace.apps, 'messageAction');
  const count = selection.uids.length;
  const tooMany = count > MAX_SELECTED;
  const run = (appId: string) =>
    void workspace.act(() => methods.interactions.runMessageAction({ appId, chat, messageUids: selection.uids }), { appId, chat }).then(selection.clear);

  return (
    <div
      className="selection-bar"
      role="toolbar"
      aria-label="Selected messages"
      onKeyDown={(event) => {
        if (event.key === 'Escape') selection.clear();
      }}
    >
      <span className="selection-count" aria-live="polite">
        {count === 1 ? '1 message selected' : `${count} messages selected`}
        {tooMany && ` (at most ${MAX_SELECTED} at once)`}
      </span>
      {actions.map((app) => (
        <button key={app.id} type="button" className="primary" disabled={count === 0 || tooMany} onClick={() => run(app.id)}>
          {app.integrations.messageAction!.name}
        </button>
      ))}
      <button type="button" className="secondary" onClick={selection.clear}>
        Cancel
      </button>
    </div>
  );
}
