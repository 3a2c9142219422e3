import { defaultEventSubscriptions, subscribableEventNames, type api, type DeveloperApp, type ParamsOf } from '@aviary/protocol';
import { useState, type FormEvent } from 'react';
import { methods } from '../../api/client';
import { Field, FormProblem, placeOf, problemOf, type Problem } from './problems';

/** The fields of an app the form edits. */
type AppFields = Omit<ParamsOf<typeof api.apps.update>, 'appId'>;

const PATHS = ['name', 'description', 'icon', 'listenerUrl', 'configurationUrl', 'allowedOrigins'] as const;
type Draft = Record<(typeof PATHS)[number], string>;

const draftOf = (app?: DeveloperApp): Draft => ({
  name: app?.name ?? '',
  description: app?.description ?? '',
  icon: app?.icon ?? '',
  listenerUrl: app?.listenerUrl ?? '',
  configurationUrl: app?.configurationUrl ?? '',
  allowedOrigins: app?.allowedOrigins.join('\n') ?? '',
});

/**
 * The fields as the API takes them: an emptied URL clears it (null) on an edit and is left out of a new
 * app; origins are one a line.
 */
interface Settings {
  flockNaming: boolean;
  /** null: the default subscriptions. */
  events: string[] | null;
}

function fieldsOf(draft: Draft, settings: Settings, editing: boolean): AppFields & { name: string } {
  const url = (value: string) => (value.trim() === '' ? (editing ? null : undefined) : value.trim());
  const fields: AppFields & { name: string } = { name: draft.name, description: draft.description };
  for (const key of ['icon', 'listenerUrl', 'configurationUrl'] as const) {
    const value = url(draft[key]);
    if (value !== undefined) fields[key] = value;
  }
  const origins = draft.allowedOrigins.split('\n').map((line) => line.trim()).filter(Boolean);
  if (editing || origins.length > 0) fields.allowedOrigins = origins;
  if (editing || settings.flockNaming) fields.flockNaming = settings.flockNaming;
  if (editing || settings.events !== null) fields.eventSubscriptions = settings.events;
  return fields;
}

const LABELS: Record<(typeof PATHS)[number], { label: string; hint?: string; type?: string }> = {
  name: { label: 'Name' },
  description: { label: 'Description' },
  icon: { label: 'Icon URL', type: 'url' },
  listenerUrl: { label: 'Listener URL', hint: 'Where the app’s events are POSTed, such as https://bot.example/events.', type: 'url' },
  configurationUrl: { label: 'Configuration URL', hint: 'The app’s settings page.', type: 'url' },
  allowedOrigins: { label: 'Allowed origins', hint: 'One a line, such as https://widgets.example: other origins its widgets may lead to.' },
};

/** Create an app, or edit one: each refusal shown under the field it names. */
export function AppForm({ app, onSaved, onCancel }: { app?: DeveloperApp; onSaved: (app: DeveloperApp) => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(app));
  const [settings, setSettings] = useState<Settings>({ flockNaming: app?.flockNaming ?? false, events: app?.eventSubscriptions ?? null });
  const events = settings.events ?? defaultEventSubscriptions;
  const toggleEvent = (name: string, on: boolean) =>
    setSettings({ ...settings, events: subscribableEventNames.filter((known) => (known === name ? on : events.includes(known))) });
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const problemAt = placeOf(problem, PATHS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const fields = fieldsOf(draft, settings, app !== undefined);
      const answer = app ? await methods.apps.update({ appId: app.id, ...fields }) : await methods.apps.create(fields);
      onSaved(answer.app);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="dev-form" onSubmit={submit} noValidate aria-label={app ? 'App settings' : 'New app'}>
      <FormProblem problem={problem} paths={PATHS} />
      {PATHS.map((path) => {
        const { label, hint, type } = LABELS[path];
        const multiline = path === 'description' || path === 'allowedOrigins';
        return (
          <Field key={path} label={label} path={path} problem={problem} problemAt={problemAt} {...(hint ? { hint } : {})}>
            {(input) =>
              multiline ? (
                <textarea {...input} rows={3} value={draft[path]} onChange={(e) => setDraft({ ...draft, [path]: e.target.value })} />
              ) : (
                <input {...input} type={type ?? 'text'} value={draft[path]} onChange={(e) => setDraft({ ...draft, [path]: e.target.value })} />
              )
            }
          </Field>
        );
      })}
      <label className="dev-check">
        <input type="checkbox" name="flockNaming" aria-describedby="dev-flock-hint" checked={settings.flockNaming} onChange={(e) => setSettings({ ...settings, flockNaming: e.target.checked })} />{' '}
        Flock-compatible naming
      </label>
      <p id="dev-flock-hint" className="dev-hint">
        For an app written for Flock: its events and widget URLs also carry Flock’s wording, and it may call with Flock’s, so it runs unchanged.
      </p>
      <fieldset aria-label="Events">
        <legend>Events it receives</legend>
        <label className="dev-check">
          <input type="checkbox" name="defaultEvents" checked={settings.events === null} onChange={(e) => setSettings({ ...settings, events: e.target.checked ? null : [...events] })} /> The
          defaults (the events of the specification)
        </label>
        {settings.events !== null &&
          subscribableEventNames.map((name) => (
            <label key={name} className="dev-check">
              <input type="checkbox" name={`event:${name}`} checked={events.includes(name)} onChange={(e) => toggleEvent(name, e.target.checked)} /> <code>{name}</code>
            </label>
          ))}
      </fieldset>
      <div className="dev-actions">
        <button type="submit" className="primary" disabled={busy}>
          {app ? 'Save changes' : 'Create app'}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
