import type { EventName } from '@aviary/protocol';
import { useState } from 'react';
import { developerApi, type DeveloperApp, type TestEventResult } from '../../api/developer';
import { EVENT_NAMES } from './eventNames';
import { problemOf } from './problems';
import { FormError } from '../FormError';

const failures: Record<NonNullable<TestEventResult['reason']>, string> = {
  no_listener: 'The app has no listener URL, and no `aviary listen` is connected.',
  timeout: 'The listener did not answer in time.',
  connection_failed: 'The listener could not be reached.',
};

/**
 * Sends a realistic example of one of the ten events to the app, signed as every delivery is, and shows
 * what its listener (or a connected `aviary listen`) answered, or why nothing did. Nothing is recorded.
 */
export function TestEvent({ app }: { app: DeveloperApp }) {
  const [name, setName] = useState<EventName>('client.slashCommand');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestEventResult>();
  const [failure, setFailure] = useState<string>();

  const send = async () => {
    setSending(true);
    setFailure(undefined);
    setResult(undefined);
    try {
      setResult(await developerApi.sendTestEvent({ id: app.id, name }));
    } catch (error) {
      setFailure(problemOf(error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="dev-test" aria-labelledby="dev-test-title">
      <h2 id="dev-test-title">Send a test event</h2>
      <p className="dev-hint">An example of the event from you, signed with the app’s secret, sent where its events go now. It is not added to the delivery log.</p>
      <div className="dev-filters">
        <div className="dev-filter">
          <label htmlFor="dev-test-event">Test event</label>
          <select id="dev-test-event" value={name} onChange={(e) => setName(e.target.value as EventName)}>
            {EVENT_NAMES.map((eventName) => (
              <option key={eventName}>{eventName}</option>
            ))}
          </select>
        </div>
        <button type="button" className="secondary" disabled={sending} onClick={send}>
          {sending ? 'Sending…' : 'Send test event'}
        </button>
      </div>
      <FormError text={failure} />
      <div role="region" aria-label="Test event result" aria-live="polite">
        {result && <TestEventOutcome result={result} />}
      </div>
    </section>
  );
}

function TestEventOutcome({ result }: { result: TestEventResult }) {
  const where = result.via === 'listen' ? 'through aviary listen' : `to ${result.url ?? 'no listener URL'}`;
  if (result.reason !== null) {
    return (
      <div className="dev-test-result">
        <p className="form-error" role="alert">
          {result.event.name} {where}: {failures[result.reason]}
        </p>
        <p className="dev-hint">{result.detail}</p>
      </div>
    );
  }
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  return (
    <div className="dev-test-result">
      <p>
        {result.event.name} {where}: <span className={`dev-status ${ok ? 'delivered' : 'failed'}`}>HTTP {result.status}</span> in {result.durationMs} ms
      </p>
      <details>
        <summary>The event sent</summary>
        <pre className="dev-snippet">{JSON.stringify(result.event, null, 2)}</pre>
      </details>
      <p className="dev-secret-label">Answer</p>
      <pre className="dev-snippet" aria-label="Answer">{result.answer === '' ? '(empty)' : result.answer}</pre>
    </div>
  );
}
