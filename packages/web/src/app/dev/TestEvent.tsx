import { eventNames as EVENT_NAMES, type EventName } from '@aviary/protocol';
import { useState } from 'react';
import type { DeveloperApp, TestEventResult } from '@aviary/protocol';
import { methods } from '../../api/client';
import { problemOf } from './problems';
import { FormError } from '../FormError';
import { initialTestEventForm, overridesOf, TestEventFields, type TestEventForm } from './TestEventFields';

const failures: Record<NonNullable<TestEventResult['reason']>, string> = {
  no_listener: 'The app has no listener URL, and no `aviary listen` is connected.',
  timeout: 'The listener did not answer in time.',
  connection_failed: 'The listener could not be reached.',
};

/**
 * Sends a realistic example of one of the ten events to the app (its own command or button, the fields
 * given, or a payload), signed as every delivery is, where a real one goes, and shows what its listener
 * (a connected `aviary listen`, or the widget URL) answered, or why nothing did. Nothing is recorded.
 */
export function TestEvent({ app }: { app: DeveloperApp }) {
  const [name, setName] = useState<EventName>('client.slashCommand');
  const [form, setForm] = useState<TestEventForm>(() => initialTestEventForm(app));
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestEventResult>();
  const [failure, setFailure] = useState<string>();

  const send = async () => {
    setSending(true);
    setFailure(undefined);
    setResult(undefined);
    try {
      setResult(await methods.deliveries.sendTestEvent({ appId: app.id, name, ...overridesOf(name, form) }));
    } catch (error) {
      setFailure(problemOf(error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="dev-test" aria-labelledby="dev-test-title">
      <h2 id="dev-test-title">Send a test event</h2>
      <p className="dev-hint">
        An example of the event from you, with the app’s own commands and buttons, signed with the app’s secret, sent where a real one goes now: its listener, a
        connected <code>aviary listen</code>, or the widget its integration opens. It is not added to the delivery log.
      </p>
      <div className="dev-filters">
        <div className="dev-filter">
          <label htmlFor="dev-test-event">Test event</label>
          <select id="dev-test-event" value={name} onChange={(e) => setName(e.target.value as EventName)}>
            {EVENT_NAMES.map((eventName) => (
              <option key={eventName}>{eventName}</option>
            ))}
          </select>
        </div>
      </div>
      <TestEventFields app={app} name={name} form={form} onChange={setForm} />
      <button type="button" className="secondary" disabled={sending} onClick={send}>
        {sending ? 'Sending…' : 'Send test event'}
      </button>
      <FormError text={failure} />
      <div role="region" aria-label="Test event result" aria-live="polite">
        {result && <TestEventOutcome result={result} />}
      </div>
    </section>
  );
}

function TestEventOutcome({ result }: { result: TestEventResult }) {
  const where = result.via === 'listen' ? 'through aviary listen' : result.via === 'widget' ? `to the widget ${widgetPage(result.url)}` : `to ${result.url ?? 'no listener URL'}`;
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

/** A signed widget URL without its long query: where it went is what matters here. */
function widgetPage(url: string | null): string {
  if (url === null) return '';
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
