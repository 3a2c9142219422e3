import type { Message } from '../api/client';
import { dayKey } from './format';

/** One line of the history list: a day separator, or a message that starts or continues a group. */
export type Row =
  | { kind: 'start'; key: 'start' }
  | { kind: 'day'; key: string; timestamp: number } | { kind: 'message'; key: string; message: Message; continued: boolean };

/** Messages from the same sender within this long of each other share one header. */
const GROUP_GAP_MS = 5 * 60_000;

/**
 * Oldest first in, oldest first out: a separator before each new day, a header when the sender changes,
 * and a first row saying so once the chat's first message is loaded.
 */
export function historyRows(messages: readonly Message[], timezone: string, reachedStart: boolean): Row[] {
  const rows: Row[] = reachedStart && messages.length > 0 ? [{ kind: 'start', key: 'start' }] : [];
  let previous: Message | undefined;
  let previousDay: string | undefined;
  for (const message of messages) {
    const day = dayKey(message.timestamp, timezone);
    if (day !== previousDay) rows.push({ kind: 'day', key: `day-${day}`, timestamp: message.timestamp });
    const continued = previous !== undefined && day === previousDay && sameSender(previous, message) && message.timestamp - previous.timestamp < GROUP_GAP_MS;
    rows.push({ kind: 'message', key: message.uid, message, continued });
    previous = message;
    previousDay = day;
  }
  return rows;
}

function sameSender(a: Message, b: Message): boolean {
  return a.from === b.from && a.appId === b.appId && a.sendAs?.name === b.sendAs?.name && a.sendAs?.profileImage === b.sendAs?.profileImage;
}
