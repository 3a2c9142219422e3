import { useState } from 'react';
import { notificationsSupported } from './useNotifier';
import { subscribeToPush } from './pushSubscription';

const DISMISSED = 'aviary.notificationPrompt.dismissed';

/**
 * Asks for notifications when it makes sense: a card the person chooses to act on (never a prompt on
 * load), shown while the browser has not been asked. Allowed, this browser also subscribes to Web Push.
 */
export function NotificationPrompt() {
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED) === '1');
  if (permission !== 'default' || dismissed) return null;
  const turnOn = async () => {
    const answer = await Notification.requestPermission();
    setPermission(answer);
    if (answer === 'granted') void subscribeToPush();
  };
  return (
    <section className="notification-prompt" aria-label="Notifications">
      <p>Get notified of direct messages and mentions while Aviary is in the background.</p>
      <div className="notification-prompt-actions">
        {/* "Turn on", short enough to sit beside "Not now" in the sidebar; its name says what it turns on. */}
        <button type="button" className="primary" aria-label="Turn on notifications" onClick={() => void turnOn()}>
          Turn on
        </button>
        <button
          type="button"
          className="quiet"
          onClick={() => {
            localStorage.setItem(DISMISSED, '1');
            setDismissed(true);
          }}
        >
          Not now
        </button>
      </div>
    </section>
  );
}
