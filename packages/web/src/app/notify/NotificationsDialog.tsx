import { doNotDisturbActive, levelOf, type DoNotDisturbSchedule, type NotificationLevel } from '@aviary/protocol';
import { useState } from 'react';
import { failureText, methods, type Conversation } from '../../api/client';
import { FormError } from '../FormError';
import { Modal } from '../Modal';
import { subscribeToPush } from './pushSubscription';
import { setNotificationSettings, useNotificationSettings } from './settingsStore';
import { formatShortTime } from '../format';
import { zoneLabel } from '../timeZones';
import { notificationsSupported } from './useNotifier';

const LEVELS: Array<[NotificationLevel, string]> = [
  ['all', 'All new messages'],
  ['mentions', 'Direct messages and mentions'],
  ['mute', 'Nothing (mute)'],
];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const PAUSES = [1, 2, 4, 8, 24];
const WORK_NIGHTS: DoNotDisturbSchedule = { days: [1, 2, 3, 4, 5], start: '19:00', end: '08:00' };

/**
 * The person's notifications: browser notifications on or off, what the open chat notifies of, a pause and
 * a weekly do-not-disturb (notifications.*). Other tabs follow through the notifications.changed frame.
 */
export function NotificationsDialog({ conversation, onClose }: { conversation: Conversation | undefined; onClose: () => void }) {
  const settings = useNotificationSettings();
  const [error, setError] = useState<string>();
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));
  const [draft, setDraft] = useState<DoNotDisturbSchedule>();
  const run = (call: () => Promise<{ settings: Parameters<typeof setNotificationSettings>[0] }>) => {
    setError(undefined);
    call().then((answer) => setNotificationSettings(answer.settings), (failure: unknown) => setError(failureText(failure)));
  };
  if (!settings) {
    return (
      <Modal title="Notifications" onClose={onClose}>
        <p className="page-message">Loading…</p>
      </Modal>
    );
  }
  const schedule = draft ?? settings.schedule;
  const paused = settings.pausedUntil !== null && settings.pausedUntil > Date.now();
  const quiet = doNotDisturbActive(settings, Date.now());
  return (
    <Modal title="Notifications" onClose={onClose} className="notifications-modal">
      <FormError text={error} />
      <div className="notify-body">
        <section className="notify-section" aria-labelledby="notify-browser">
          <h3 id="notify-browser">This browser</h3>
          {permission === 'granted' ? (
            <p>Notifications are on{quiet ? ', held back while do-not-disturb lasts' : ''}.</p>
          ) : permission === 'denied' ? (
            <p>Notifications are blocked for this site: allow them in the browser’s site settings.</p>
          ) : (
            <button
              type="button"
              className="primary"
              onClick={() =>
                void Notification.requestPermission().then((answer) => {
                  setPermission(answer);
                  if (answer === 'granted') void subscribeToPush();
                })
              }
            >
              Turn on notifications
            </button>
          )}
        </section>
        {conversation && (
          <fieldset className="notify-section">
            <legend>
              Notify me in {conversation.kind === 'channel' ? '#' : ''}
              {conversation.name} of
            </legend>
            {LEVELS.map(([level, label]) => (
              <label key={level} className="notify-choice">
                <input
                  type="radio"
                  name="notify-level"
                  checked={levelOf(settings, conversation.chat) === level}
                  onChange={() => run(() => methods.notifications.setChatLevel({ chat: conversation.chat, level }))}
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}
        <section className="notify-section" aria-labelledby="notify-pause">
          <h3 id="notify-pause">Pause</h3>
          {paused ? (
            <p className="notify-row">
              Paused until {formatShortTime(settings.pausedUntil!, settings.timeZone)}.
              <button type="button" className="secondary" onClick={() => run(() => methods.notifications.setDoNotDisturb({ pauseHours: 0 }))}>
                Resume now
              </button>
            </p>
          ) : (
            <p className="notify-row">
              {PAUSES.map((hours) => (
                <button key={hours} type="button" className="secondary" onClick={() => run(() => methods.notifications.setDoNotDisturb({ pauseHours: hours }))}>
                  {hours} h
                </button>
              ))}
            </p>
          )}
        </section>
        <fieldset className="notify-section">
          <legend>Do not disturb on a schedule ({zoneLabel(settings.timeZone)})</legend>
          <label className="notify-choice">
            <input
              type="checkbox"
              checked={schedule !== null}
              onChange={(event) => {
                setDraft(event.target.checked ? WORK_NIGHTS : undefined);
                if (!event.target.checked) run(() => methods.notifications.setDoNotDisturb({ schedule: null }));
              }}
            />
            On
          </label>
          {schedule && (
            <>
              <div className="notify-days" role="group" aria-label="Days it starts on">
                {DAYS.map((day, index) => (
                  <label key={day} className="notify-day">
                    <input
                      type="checkbox"
                      checked={schedule.days.includes(index)}
                      onChange={(event) => setDraft({ ...schedule, days: event.target.checked ? [...schedule.days, index].sort() : schedule.days.filter((d) => d !== index) })}
                    />
                    {day}
                  </label>
                ))}
              </div>
              <div className="notify-row">
                <label>
                  From <input type="time" value={schedule.start} required onChange={(event) => setDraft({ ...schedule, start: event.target.value })} />
                </label>
                <label>
                  to <input type="time" value={schedule.end} required onChange={(event) => setDraft({ ...schedule, end: event.target.value })} />
                </label>
                <button
                  type="button"
                  className="primary"
                  disabled={draft === undefined || schedule.days.length === 0}
                  onClick={() => {
                    run(() => methods.notifications.setDoNotDisturb({ schedule }));
                    setDraft(undefined);
                  }}
                >
                  Save schedule
                </button>
              </div>
            </>
          )}
        </fieldset>
      </div>
    </Modal>
  );
}
