import type { api, ResultOf } from '@aviary/protocol';
import { useCallback, useState, type FormEvent } from 'react';
import { failureText, methods, type Channel } from '../api/client';
import { FormError } from './FormError';
import { formatFullTime } from './format';
import { useWorkspace } from './workspaceContext';

type WebhookModel = ResultOf<typeof api.webhooks.list>['webhooks'][number];

/**
 * A channel's incoming webhooks (docs/reference/webhooks.md), folded away in its members dialog: the
 * live ones, who made them and when they last posted; a new one's secret URL, shown this once; revoking.
 * The server decides who may revoke which (its refusal is shown as it words it).
 */
export function ChannelWebhooks({ channel }: { channel: Channel }) {
  const workspace = useWorkspace();
  const [hooks, setHooks] = useState<WebhookModel[]>();
  const [problem, setProblem] = useState<string>();
  const [name, setName] = useState('');
  const [made, setMade] = useState<{ name: string; url: string }>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () => methods.webhooks.list({ channel: channel.id }).then(({ webhooks }) => setHooks(webhooks), (failure: unknown) => setProblem(failureText(failure))),
    [channel.id],
  );

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await work();
      await load();
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { webhook, url } = await methods.webhooks.create({ channel: channel.id, name: name.trim() });
      setMade({ name: webhook.name, url: new URL(url, window.location.origin).toString() });
      setName('');
    });
  };

  return (
    <details className="channel-webhooks" onToggle={(event) => (event.currentTarget.open && hooks === undefined ? void load() : undefined)}>
      <summary>Incoming webhooks</summary>
      <FormError text={problem} />
      {made && (
        <p className="webhook-made" role="status">
          The URL of {made.name}, shown only now — anyone who has it can post here:{' '}
          <input readOnly aria-label={`URL of the webhook ${made.name}`} value={made.url} onFocus={(event) => event.currentTarget.select()} />
        </p>
      )}
      {hooks !== undefined && (
        <ul className="modal-list" aria-label="Webhooks">
          {hooks.length === 0 && <li className="picker-detail">No webhooks post to this channel.</li>}
          {hooks.map((hook) => (
            <li key={hook.id} className="modal-row">
              <div className="modal-row-text">
                <span className="picker-label">{hook.name}</span>
                <span className="picker-detail">
                  made by {workspace.nameOf(hook.createdBy) ?? hook.createdBy}
                  {hook.lastUsedAt !== undefined ? `, last posted ${formatFullTime(hook.lastUsedAt, workspace.me.timeZone)}` : ', never used'}
                </span>
              </div>
              <button type="button" className="secondary danger" disabled={busy} aria-label={`Revoke the webhook ${hook.name}`} onClick={() => void run(async () => void (await methods.webhooks.revoke({ webhook: hook.id })))}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} className="webhook-form">
        <input aria-label="Webhook name" placeholder="Name, e.g. CI" maxLength={80} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" className="secondary" disabled={busy || name.trim() === ''}>
          Create webhook
        </button>
      </form>
    </details>
  );
}
