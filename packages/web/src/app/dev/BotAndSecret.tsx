import { useState } from 'react';
import type { DeveloperApp } from '@aviary/protocol';
import { methods } from '../../api/client';
import { problemOf, type Problem } from './problems';
import { FormError } from '../FormError';

/** A value shown in full with a button that copies it. */
function Secret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="dev-secret">
      <span className="dev-secret-label">{label}</span>
      <code aria-label={label}>{value}</code>
      <button
        type="button"
        className="secondary"
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        Copy
      </button>
      {copied && <span role="status">Copied.</span>}
    </div>
  );
}

/**
 * The bot (enable it, then a fresh token on demand: only its hash is kept, so a token is shown once) and
 * the app secret (hidden until asked for; rotating it shows the new one and how long the old one still
 * verifies).
 */
export function BotAndSecret({ app, onChanged }: { app: DeveloperApp; onChanged: (change: Partial<DeveloperApp>) => void }) {
  const [botToken, setBotToken] = useState<string>();
  const [secretShown, setSecretShown] = useState(false);
  const [graceUntil, setGraceUntil] = useState<number>();
  const [problem, setProblem] = useState<Problem>();

  const run = async (action: () => Promise<void>) => {
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  const issueToken = () =>
    run(async () => {
      const credentials = app.botUserId ? await methods.apps.regenerateBotToken({ appId: app.id }) : await methods.apps.enableBot({ appId: app.id });
      setBotToken(credentials.botToken);
      onChanged({ botUserId: credentials.botUserId });
    });
  const rotate = () =>
    run(async () => {
      if (!window.confirm('Rotate the app secret? Events are signed with the new secret, and for a grace period also with the old one.')) return;
      const { secret, previousSecretUntil } = await methods.apps.rotateSecret({ appId: app.id });
      setSecretShown(true);
      setGraceUntil(previousSecretUntil);
      onChanged({ secret });
    });

  return (
    <div className="dev-form">
      <FormError text={problem?.message} />
      <section aria-labelledby="dev-bot-title">
        <h2 id="dev-bot-title">Bot</h2>
        <p className="dev-hint">{app.botUserId ? 'The bot is enabled. A new token stops the old one at once.' : 'The app has no bot yet.'}</p>
        {botToken && <Secret label="Bot token" value={botToken} />}
        <button type="button" className="primary" onClick={issueToken}>
          {app.botUserId ? 'Regenerate the bot token' : 'Enable the bot'}
        </button>
      </section>
      <section aria-labelledby="dev-secret-title">
        <h2 id="dev-secret-title">The app secret</h2>
        <p className="dev-hint">Events to the listener are signed with it; the SDK’s listener verifies them.</p>
        {secretShown && app.secret ? (
          <Secret label="App secret" value={app.secret} />
        ) : (
          <button type="button" className="secondary" onClick={() => setSecretShown(true)}>
            Show the secret
          </button>
        )}
        {graceUntil !== undefined && (
          <p role="status">
            Until {new Date(graceUntil).toLocaleString()}, events also carry a token signed with the previous secret, so a listener still holding it
            keeps working: give it the new secret before then.
          </p>
        )}
        <button type="button" className="secondary danger" onClick={rotate}>
          Rotate the secret
        </button>
      </section>
    </div>
  );
}
