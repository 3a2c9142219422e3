import { useCallback, useEffect, useState } from 'react';
import type { DeveloperApp, Webhook } from '@aviary/protocol';
import { methods } from '../../api/client';
import { FormError } from '../FormError';
import { problemOf } from './problems';

const when = (ms: number | undefined) => (ms === undefined ? 'never' : new Date(ms).toLocaleString());

/**
 * The incoming webhooks made through the app (with its user or bot tokens): where each posts, when it was
 * made and last used, and a revoke button. Their secret URLs are shown only to whoever made them.
 */
export function AppWebhooks({ app }: { app: DeveloperApp }) {
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [channelNames, setChannelNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [failure, setFailure] = useState<string>();
  // The names of the channels the person can see (theirs and the public ones); another is shown by its id.
  useEffect(() => {
    void Promise.all([methods.channels.list(), methods.channels.listPublic()]).then(
      ([mine, open]) => setChannelNames(new Map([...mine, ...open.channels.map((entry) => entry.channel)].map((channel) => [channel.id, channel.name]))),
      () => undefined,
    );
  }, []);
  const load = useCallback(async () => {
    try {
      setWebhooks((await methods.apps.listWebhooks({ appId: app.id })).webhooks);
    } catch (error) {
      setFailure(problemOf(error).message);
    }
  }, [app.id]);
  useEffect(() => void load(), [load]);

  const revoke = async (webhook: Webhook) => {
    if (!window.confirm(`Revoke the webhook "${webhook.name}"? Its URL stops working at once.`)) return;
    setFailure(undefined);
    try {
      await methods.apps.revokeWebhook({ appId: app.id, webhook: webhook.id });
      await load();
    } catch (error) {
      setFailure(problemOf(error).message);
    }
  };

  return (
    <section aria-labelledby="dev-webhooks-title">
      <h2 id="dev-webhooks-title">Incoming webhooks</h2>
      <p className="dev-hint">Made through this app with <code>webhooks.create</code>: each posts to one channel as the app, under its own name.</p>
      <FormError text={failure} />
      {webhooks === undefined ? (
        <p className="dev-hint">Loading webhooks…</p>
      ) : webhooks.length === 0 ? (
        <p className="dev-hint">No webhook made through this app.</p>
      ) : (
        <table className="dev-table" aria-label="Incoming webhooks">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Channel</th>
              <th scope="col">Made</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {webhooks.map((webhook) => (
              <tr key={webhook.id}>
                <td>{webhook.name}</td>
                <td>{channelNames.has(webhook.channel) ? `#${channelNames.get(webhook.channel)}` : <code>{webhook.channel}</code>}</td>
                <td>{when(webhook.createdAt)}</td>
                <td>{when(webhook.lastUsedAt)}</td>
                <td>
                  <button type="button" className="secondary danger" onClick={() => void revoke(webhook)} aria-label={`Revoke ${webhook.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
