import { useState, type FormEvent } from 'react';
import { failureText } from '../../api/client';
import { formatFullTime, formatShortTime } from '../format';
import { FormError } from '../FormError';
import { Modal } from '../Modal';
import { zoneLabel } from '../timeZones';
import { useWorkspace } from '../workspaceContext';
import { momentOf, scheduleChoices, wallTimeAt } from './scheduleTimes';
import './schedule.css';

/**
 * "Schedule message": the composer's text sent later, at a quick choice (in an hour, tomorrow or next
 * Monday at 9:00) or at a day and time of the person's choosing, on their own clock (the profile's time
 * zone). The server sends it then with every check of a send made again (chat.scheduleMessage). Enter
 * in its fields schedules; it never sends the message now (Modal keeps its submit to itself).
 */
export function ScheduleDialog({ text, onSchedule, onClose }: { text: string; onSchedule: (at: number) => Promise<void>; onClose: () => void }) {
  const zone = useWorkspace().me.timeZone;
  const [now] = useState(() => Date.now());
  const choices = scheduleChoices(now, zone);
  const [wall, setWall] = useState(() => wallTimeAt(choices[1]!.at, zone));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const schedule = async (at: number | undefined) => {
    if (at === undefined) return setError('Pick a day and a time.');
    if (at <= Date.now()) return setError(`${formatFullTime(at, zone)} has passed: pick a later time.`);
    setBusy(true);
    setError(undefined);
    try {
      await onSchedule(at);
      onClose();
    } catch (failure) {
      setError(failureText(failure));
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void schedule(momentOf(wall, zone));
  };

  return (
    <Modal title="Schedule message" onClose={onClose} className="schedule-dialog">
      <form className="modal-form" onSubmit={submit}>
        <blockquote className="schedule-preview">{text.length > 300 ? `${text.slice(0, 300)}…` : text}</blockquote>
        <div className="schedule-choices" role="group" aria-label="Send at">
          {choices.map((choice) => (
            <button key={choice.label} type="button" className="secondary" disabled={busy} onClick={() => void schedule(choice.at)}>
              <span>{choice.label}</span>
              <span className="schedule-when">{formatShortTime(choice.at, zone)}</span>
            </button>
          ))}
        </div>
        <fieldset className="schedule-custom">
          <legend>Or pick a day and time ({zoneLabel(zone)})</legend>
          <label>
            Day
            <input type="date" value={wall.date} min={wallTimeAt(now, zone).date} required onChange={(event) => setWall({ ...wall, date: event.target.value })} />
          </label>
          <label>
            Time
            <input type="time" value={wall.time} required onChange={(event) => setWall({ ...wall, time: event.target.value })} />
          </label>
        </fieldset>
        <FormError text={error} />
        <div className="modal-actions">
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Schedule
          </button>
        </div>
      </form>
    </Modal>
  );
}
