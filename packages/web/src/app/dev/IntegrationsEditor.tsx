import type { Action, Integrations } from '@aviary/protocol';
import { useState, type FormEvent } from 'react';
import type { DeveloperApp } from '@aviary/protocol';
import { methods } from '../../api/client';
import { ActionEditor, actionPaths } from './ActionEditor';
import { AppHomeField } from './AppHomeField';
import { Field, FormProblem, placeOf, problemOf, type Problem } from './problems';

const BUTTONS = [
  { key: 'launcherButton', label: 'Launcher button', hint: 'In the sidebar, under Apps.' },
  { key: 'chatTabButton', label: 'Chat-tab button', hint: 'In the header of a conversation.' },
  { key: 'attachmentPickerButton', label: 'Attachment-picker button', hint: 'In the composer’s attachment menu.' },
] as const;
type ButtonKey = (typeof BUTTONS)[number]['key'];

const sendEvent: Action = { type: 'sendEvent' };

/** Every path the editor renders a field at, so a refusal lands on the deepest one it names (others above the form). */
function renderedPaths(draft: Integrations): string[] {
  const paths = ['integrations.previewDomains', 'integrations.appHome.url'];
  draft.slashCommands.forEach((command, index) => {
    const base = `integrations.slashCommands[${index}]`;
    paths.push(`${base}.name`, `${base}.description`, ...actionPaths(`${base}.action`, command.action));
  });
  for (const key of [...BUTTONS.map((button) => button.key), 'messageAction'] as const) {
    const item = draft[key];
    if (item) paths.push(`integrations.${key}.name`, ...actionPaths(`integrations.${key}.action`, item.action));
  }
  return paths;
}

/** Slash commands, buttons, the message action and preview domains, saved whole; refusals shown in place. */
export function IntegrationsEditor({ app, onSaved }: { app: DeveloperApp; onSaved: (integrations: Integrations) => void }) {
  const [draft, setDraft] = useState<Integrations>(app.integrations);
  const [domains, setDomains] = useState(app.integrations.previewDomains.join('\n'));
  const [problem, setProblem] = useState<Problem>();
  const [saved, setSaved] = useState(false);
  const paths = renderedPaths(draft);
  const at = { problem, problemAt: placeOf(problem, paths) };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setSaved(false);
    try {
      const previewDomains = domains.split('\n').map((line) => line.trim()).filter(Boolean);
      const answer = await methods.apps.setIntegrations({ appId: app.id, integrations: { ...draft, previewDomains } });
      setDraft(answer.integrations);
      setSaved(true);
      onSaved(answer.integrations);
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  const setCommand = (index: number, change: Partial<Integrations['slashCommands'][number]>) =>
    setDraft({ ...draft, slashCommands: draft.slashCommands.map((command, i) => (i === index ? { ...command, ...change } : command)) });
  const toggle = (key: ButtonKey | 'messageAction', on: boolean) => {
    const next = { ...draft };
    if (on) next[key] = { name: '', action: sendEvent };
    else delete next[key];
    setDraft(next);
  };

  return (
    <form className="dev-form" onSubmit={submit} noValidate aria-label="Integrations">
      <FormProblem problem={problem} paths={paths} />
      <fieldset>
        <legend>Slash commands</legend>
        {draft.slashCommands.length === 0 && <p className="dev-hint">No slash commands.</p>}
        {draft.slashCommands.map((command, index) => {
          const base = `integrations.slashCommands[${index}]`;
          return (
            <fieldset key={index} className="dev-item" aria-label={`Slash command ${index + 1}`}>
              <Field label="Command name" path={`${base}.name`} hint="Without the slash, such as weather." {...at}>
                {(input) => <input {...input} value={command.name} onChange={(e) => setCommand(index, { name: e.target.value })} />}
              </Field>
              <Field label="Command description" path={`${base}.description`} {...at}>
                {(input) => (
                  <input
                    {...input}
                    value={command.description ?? ''}
                    onChange={(e) => {
                      const { description: _, ...rest } = command;
                      setDraft({ ...draft, slashCommands: draft.slashCommands.map((c, i) => (i === index ? (e.target.value ? { ...rest, description: e.target.value } : rest) : c)) });
                    }}
                  />
                )}
              </Field>
              <ActionEditor path={`${base}.action`} action={command.action} onChange={(action) => setCommand(index, { action })} {...at} />
              <button type="button" className="secondary danger" onClick={() => setDraft({ ...draft, slashCommands: draft.slashCommands.filter((_, i) => i !== index) })}>
                Remove /{command.name || 'command'}
              </button>
            </fieldset>
          );
        })}
        <button type="button" className="secondary" onClick={() => setDraft({ ...draft, slashCommands: [...draft.slashCommands, { name: '', action: sendEvent }] })}>
          Add a slash command
        </button>
      </fieldset>
      {[...BUTTONS, { key: 'messageAction', label: 'Message action', hint: 'In the menu of a message.' } as const].map(({ key, label, hint }) => {
        const item = draft[key];
        return (
          <fieldset key={key} className="dev-item">
            <legend>{label}</legend>
            <label className="dev-check">
              <input type="checkbox" checked={item !== undefined} onChange={(e) => toggle(key, e.target.checked)} /> Show {withArticle(label.toLowerCase())} ({hint})
            </label>
            {item && (
              <>
                <Field label={`${label} name`} path={`integrations.${key}.name`} {...at}>
                  {(input) => <input {...input} value={item.name} onChange={(e) => setDraft({ ...draft, [key]: { ...item, name: e.target.value } })} />}
                </Field>
                <ActionEditor path={`integrations.${key}.action`} action={item.action} onChange={(action) => setDraft({ ...draft, [key]: { ...item, action } })} {...at} />
              </>
            )}
          </fieldset>
        );
      })}
      <AppHomeField draft={draft} setDraft={setDraft} {...at} />
      <Field label="Preview domains" path="integrations.previewDomains" hint="One a line: example.com, or *.example.com for its subdomains." {...at}>
        {(input) => <textarea {...input} rows={3} value={domains} onChange={(e) => setDomains(e.target.value)} />}
      </Field>
      <div className="dev-actions">
        <button type="submit" className="primary">
          Save integrations
        </button>
        {saved && <span role="status">Integrations saved.</span>}
      </div>
    </form>
  );
}

/** "a chat-tab button", "an attachment-picker button". */
function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}
