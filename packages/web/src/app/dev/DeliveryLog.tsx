import { eventNames as EVENT_NAMES, type EventName } from '@aviary/protocol';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { deliveryStatuses, type DeliveredEvent, type DeliveryStatus, type DeveloperApp } from '@aviary/protocol';
import { methods } from '../../api/client';
import { useStreamFrames } from '../../stream/useStream';
import { Attempts, time } from './Attempts';
import { problemOf, type Problem } from './problems';
import { TestEvent } from './TestEvent';
import { FormError } from '../FormError';

/** A filter of the log: a labelled select whose first option means "no filter". */
function Filter<T extends string>({ id, label, value, any, options, onChange }: { id: string; label: string; value: T | ''; any: string; options: readonly T[]; onChange: (value: T | '') => void }) {
  return (
    <div className="dev-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        <option value="">{any}</option>
        {options.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    </div>
  );
}

/**
 * The app's events with their status, filtered by name and status; each one's attempts on demand;
 * replay one or every failed one; pause and resume delivery; send a test event. It follows the
 * stream's `delivery.changed` frames for the app, so statuses change without a reload.
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
      const answer = await methods.deliveries.list({ appId: app.id, ...(name ? { name } : {}), ...(status ? { status } : {}) });
      setEvents(answer.events);
    } catch (error) {
      setProblem(problemOf(error));
    }
  }, [app.id, name, status]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // Live: the stream tells the app's developer when its log changed; read it again then (one read per batch of frames).
  useStreamFrames((frames) => {
    const mine = frames.filter((frame) => frame.type === 'delivery.changed' && frame.appId === app.id);
    const latest = mine[mine.length - 1];
    if (latest?.type !== 'delivery.changed') return;
    if (latest.deliveryPausedAt !== app.deliveryPausedAt) onChanged({ deliveryPausedAt: latest.deliveryPausedAt });
    void refresh();
  });

  const act = async (action: () => Promise<string>) => {
    setProblem(undefined);
    try {
      setNotice(await action());
      await refresh();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  const setPaused = (paused: boolean) =>
    act(async () => {
      if (paused) await methods.deliveries.pause({ appId: app.id });
      else await methods.deliveries.resume({ appId: app.id });
      onChanged({ deliveryPausedAt: paused ? Date.now() : null });
      return paused ? 'Delivery paused: events wait until you resume it.' : 'Delivery resumed.';
    });
  const [confirmReplay, setConfirmReplay] = useState(false);
  const replayFailed = () =>
    act(async () => {
      setConfirmReplay(false);
      const { replayed } = await methods.deliveries.replayFailed({ appId: app.id });
      return replayed === 0 ? 'No failed event to send again.' : `${replayed} failed event${replayed === 1 ? '' : 's'} sent again.`;
    });

  return (
    <div className="dev-log">
      <TestEvent app={app} />
      {app.deliveryPausedAt !== null && (
        <div className="dev-paused" role="region" aria-label="Delivery paused">
          <p>Delivery has been paused since {time(app.deliveryPausedAt)} (by hand, or after days of failures); waiting events show as paused.</p>
          <button type="button" className="primary" onClick={() => setPaused(false)}>
            Resume delivery
          </button>
        </div>
      )}
      <div className="dev-filters">
        <Filter id="dev-filter-event" label="Event" value={name} any="Every event" options={EVENT_NAMES} onChange={setName} />
        <Filter id="dev-filter-status" label="Status" value={status} any="Any status" options={deliveryStatuses} onChange={setStatus} />
        <button type="button" className="secondary" onClick={() => void refresh()}>
          Refresh
        </button>
        <button type="button" className="secondary" aria-expanded={confirmReplay} onClick={() => setConfirmReplay(true)}>
          Replay all failed…
        </button>
        {app.deliveryPausedAt === null && (
          <button type="button" className="secondary danger" onClick={() => setPaused(true)}>
            Pause delivery
          </button>
        )}
      </div>
      {confirmReplay && (
        <div className="dev-confirm" role="group" aria-label="Replay all failed events">
          <p>Send every failed event of {app.name} again, as new? Failed synchronous events (installs, commands, buttons, previews) stay failed.</p>
          <button type="button" className="primary" onClick={replayFailed}>
            Replay them
          </button>
          <button type="button" className="secondary" onClick={() => setConfirmReplay(false)}>
            Cancel
          </button>
        </div>
      )}
      <FormError text={problem?.message} />
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
                  <td>
                    {event.name}
                    {event.openedUrl !== undefined && <span className="dev-opened"> opened {event.openedUrl}</span>}
                  </td>
                  <td>
                    <span className={`dev-status ${event.status}`}>{event.status}</span>
                  </td>
                  <td>{event.retryNum}</td>
                  <td className="dev-error-cell">{event.lastError ?? ''}</td>
                  <td>
                    <div className="dev-row-actions">
                    {event.openedUrl === undefined && (
                      <button type="button" className="quiet" aria-expanded={open === event.id} onClick={() => setOpen(open === event.id ? undefined : event.id)}>
                        Attempts<span className="visually-hidden"> of {event.name} {event.id}</span>
                      </button>
                    )}
                    {!event.synchronous && (
                      <button type="button" className="quiet" onClick={() => act(async () => (await methods.deliveries.replay({ appId: app.id, eventId: event.id }), `${event.name} sent again.`))}>
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
