import { subscribableEventNames } from '@aviary/protocol';
import { invalidParameter } from '../errors.js';

/**
 * The one check of an app's event subscriptions (docs/reference/event-subscriptions.md): null, "" or
 * left to the defaults; else a list of event names, each known, kept once and in the order of the
 * protocol's list, so that the same choice is always stored alike.
 */
export function checkEventSubscriptions(value: unknown): string[] | null {
  if (value === null || value === '') return null;
  if (!Array.isArray(value)) throw invalidParameter('eventSubscriptions', 'eventSubscriptions must be a list of event names, or null for the defaults.');
  value.forEach((name, index) => {
    if (typeof name !== 'string' || !subscribableEventNames.includes(name)) {
      throw invalidParameter(
        `eventSubscriptions[${index}]`,
        `eventSubscriptions[${index}] names no event an app may subscribe to (${JSON.stringify(name)}); the events are ${subscribableEventNames.join(', ')}.`,
      );
    }
  });
  return subscribableEventNames.filter((name) => value.includes(name));
}
