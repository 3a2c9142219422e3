import type { Action } from '@aviary/protocol';
import { Field, type Problem } from './problems';

/** The paths an action's fields are rendered at, for placing refusals. */
export const actionPaths = (path: string, action: Action) => [path, ...(action.type === 'sendEvent' ? [] : [`${path}.url`]), ...(action.type === 'openWidget' ? [`${path}.desktopType`] : [])];

/** What using the command or button does: send an event, open a widget (modal or sidebar) or a browser page. */
export function ActionEditor({ path, action, onChange, problem, problemAt }: { path: string; action: Action; onChange: (action: Action) => void; problem?: Problem; problemAt?: string }) {
  const shared = { problem, problemAt };
  return (
    <fieldset className="dev-action">
      <legend>Action</legend>
      <Field label="Does" path={path} {...shared}>
        {(input) => (
          <select
            {...input}
            value={action.type}
            onChange={(e) => {
              const type = e.target.value as Action['type'];
              onChange(type === 'sendEvent' ? { type } : { type, url: action.url ?? '', ...(type === 'openWidget' ? { desktopType: action.desktopType ?? 'modal' } : {}) });
            }}
          >
            <option value="sendEvent">Send an event</option>
            <option value="openWidget">Open a widget</option>
            <option value="openBrowser">Open a browser page</option>
          </select>
        )}
      </Field>
      {action.type !== 'sendEvent' && (
        <Field label="URL" path={`${path}.url`} {...shared}>
          {(input) => <input {...input} type="url" value={action.url ?? ''} onChange={(e) => onChange({ ...action, url: e.target.value })} />}
        </Field>
      )}
      {action.type === 'openWidget' && (
        <Field label="Opens as" path={`${path}.desktopType`} {...shared}>
          {(input) => (
            <select {...input} value={action.desktopType ?? 'modal'} onChange={(e) => onChange({ ...action, desktopType: e.target.value as 'modal' | 'sidebar' })}>
              <option value="modal">A modal</option>
              <option value="sidebar">A sidebar</option>
            </select>
          )}
        </Field>
      )}
    </fieldset>
  );
}
