import type { EventName } from '@aviary/protocol';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { deliveryStatuses, developerApi, type DeliveredEvent, type DeliveryAttempt, type DeliveryStatus, type DeveloperApp } from '../../api/developer';
import { problemOf, type Problem } from './problems';

/** The ten events, for the filter (the protocol's `eventNames`, written out so the page does not bundle TypeBox). */
const EVENT_NAMES: readonly EventName[] = [
  'app.install', 'app.uninstall', 'chat.receiveMessage', 'chat.generateUrlPreview', 'client.pressButton',
  'client.slashCommand', 'client.messageAction', 'client.openAttachmentWidget', 'client.widgetAction', 'client.servicemlAction',
];

const time = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/**
 * The app's events with their status, filtered by name and status; each one's attempts on demand;
 * replay one or every failed one; pause and resume delivery. Refreshed by its button (no live updates yet).
 */
export function DeliveryLog({ app, onChanged }: { app: DeveloperApp; onChanged: (change: Partial<DeveloperApp>) => void }) {
  const [name, setName] = useState<EventName | ''>('');
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [events, setEvents] = useState<DeliveredEvent[]>();
  const [open, setOpen] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();

  const refresh = useCallback(async () => {
    setProblem(undefined);
    try {
      const answer = await developerApi.listEvents(app.id, { ...(name ? { name } : {}), ...(status ? { status } : {}) });
      setEvents(answer.events);
    } catch (error) {
      setProblem(problemOf(error));
    }
  }, [app.id, name, status]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const act = async (action: () => Promise<string>) => {
    setProblem(undefined);
    try {
      setNotice(await action());
      await refresh();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  const failed = events?.filter((event) => event.status === 'failed' && !event.synchronous) ?? [];
  const replayFailed = () =>
    act(async () => {
      for (const event of failed) await developerApi.replayEvent(app.id, event.id);
      return `${failed.length} failed event${failed.length === 1 ? '' : 's'} sent again.`;
    });

  return (
    <div className="dev-log">
      {app.deliveryPausedAt !== null && (
        <div className="dev-paused" role="region" aria-label="Delivery paused">
          <p>Delivery has been paused since {time(app.deliveryPausedAt)} (by hand, or after days of failures); waiting events show as paused.</p>
          <button
            type="button"
            className="primary"
            onClick={() =>
              act(async () => {
                await developerApi.resumeDelivery(app.id);
                onChanged({ deliveryPausedAt: null });
                return 'Delivery resumed.';
              })
            }
          >
            Resume delivery
          </button>
        </div>
      )}
      <div className="dev-filters">
        <div className="dev-filter">
          <label htmlFor="dev-filter-event">Event</label>
          <select id="dev-filter-event" value={name} onChange={(e) => setName(e.target.value as EventName | '')}>
            <option value="">Every event</option>
            {EVENT_NAMES.map((eventName) => (
              <option key={eventName}>{eventName}</option>
            ))}
          </select>
        </div>
        <div className="dev-filter">
          <label htmlFor="dev-filter-status">Status</label>
          <select id="dev-filter-status" value={status} onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')}>
            <option value="">Any status</option>
            {deliveryStatuses.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </div>
        <button type="button" className="secondary" onClick={() => void refresh()}>
          Refresh
        </button>
        <button type="button" className="secondary" disabled={failed.length === 0} onClick={replayFailed}>
          Replay all failed
        </button>
        {app.deliveryPausedAt === null && (
          <button
            type="button"
            className="secondary danger"
            onClick={() =>
              act(async () => {
                await developerApi.pauseDelivery(app.id);
                onChanged({ deliveryPausedAt: Date.now() });
                return 'Delivery paused: events wait until you resume it.';
              })
            }
          >
            Pause delivery
          </button>
        )}
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem.message}
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      {events === undefined ? (
        <p className="dev-hint">Loading…</p>
      ) : events.length === 0 ? (
        <p className="dev-hint">No events{name || status ? ' match these filters' : ' yet'}.</p>
      ) : (
        <table className="dev-table" aria-label="Events">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Retries</th>
              <th scope="col">Last error</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <Fragment key={event.id}>
                <tr>
                  <td>{time(event.createdAt)}</td>
                  <td>{event.name}</td>
                  <td>
                    <span className={`dev-status ${event.status}`}>{event.status}</span>
                  </td>
                  <td>{event.retryNum}</td>
                  <td className="dev-error-cell">{event.lastError ?? ''}</td>
                  <td>
                    <div className="dev-row-actions">
                    <button type="button" className="quiet" aria-expanded={open === event.id} onClick={() => setOpen(open === event.id ? undefined : event.id)}>
                      Attempts<span className="visually-hidden"> of {event.name} {event.id}</span>
                    </button>
                    {!event.synchronous && (
                      <button type="button" className="quiet" onClick={() => act(async () => (await developerApi.replayEvent(app.id, event.id), `${event.name} sent again.`))}>
                        Replay<span className="visually-hidden"> {event.name} {event.id}</span>
                      </button>
                    )}
                    </div>
                  </td>
                </tr>
                {open === event.id && (
                  <tr>
                    <td colSpan={6}>
                      <Attempts appId={app.id} eventId={event.id} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** One event's attempts: when, retry number, HTTP status, latency, error and the first 1 KiB of the answer. */
function Attempts({ appId, eventId }: { appId: string; eventId: string }) {
  const [attempts, setAttempts] = useState<DeliveryAttempt[]>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    developerApi.listAttempts(appId, eventId).then(
      (answer) => setAttempts(answer.attempts),
      (error: unknown) => setFailure(problemOf(error).message),
    );
  }, [appId, eventId]);
  if (failure) return <p className="form-error">{failure}</p>;
  if (!attempts) return <p className="dev-hint">Loading attempts…</p>;
  if (attempts.length === 0) return <p className="dev-hint">No attempt yet.</p>;
  return (
    <table className="dev-table dev-attempts" aria-label={`Attempts of ${eventId}`}>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Retry</th>
          <th scope="col">HTTP status</th>
          <th scope="col">Latency</th>
          <th scope="col">Outcome</th>
          <th scope="col">Error</th>
          <th scope="col">Answer (first 1 KiB)</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.id}>
            <td>{time(attempt.startedAt)}</td>
            <td>{attempt.retryNum}</td>
            <td>{attempt.status ?? 'no answer'}</td>
            <td>{attempt.durationMs} ms</td>
            <td>{attempt.outcome}</td>
            <td>{[attempt.reason, attempt.error].filter(Boolean).join(': ')}</td>
            <td>
              <pre className="dev-snippet">{attempt.responseSnippet ?? ''}</pre>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
