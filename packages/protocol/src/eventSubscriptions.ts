/**
 * Event subscriptions, an Aviary extension (docs/reference/event-subscriptions.md): an app chooses which
 * events it receives. An app that never chose (`null`) receives the defaults, which are the events of
 * the specification: every app receives them today. Events that are Aviary's own extensions go only to
 * apps that subscribe to them.
 */
import { Type } from '@sinclair/typebox';
import { eventNames, type EventName } from './events.js';
import { checkedByServer } from './params.js';

/** The events an app may subscribe to. */
export const subscribableEventNames: readonly string[] = eventNames;

/**
 * What an app receives until it chooses: the ten events of the specification, named here rather than
 * read from `eventNames`, so that an event Aviary adds never reaches an app that did not ask for it.
 */
export const defaultEventSubscriptions: readonly string[] = [
  'app.install',
  'app.uninstall',
  'chat.receiveMessage',
  'chat.generateUrlPreview',
  'client.pressButton',
  'client.slashCommand',
  'client.messageAction',
  'client.openAttachmentWidget',
  'client.widgetAction',
  'client.servicemlAction',
] satisfies readonly EventName[];

export const eventSubscriptionsDescription =
  'the events the app receives, by name (docs/reference/event-subscriptions.md); null (or left out of a manifest) means the defaults, the events of the specification';

/** The field as a developer gives it: checked by the server, which names a wrong entry (`eventSubscriptions[2]`). */
export const EventSubscriptionsInput = Type.Union([Type.Array(Type.String(), { maxItems: 100 }), Type.Null()], {
  ...checkedByServer,
  clearable: true,
  description: eventSubscriptionsDescription,
});

/** Whether an app whose subscriptions are `subscriptions` (null: the defaults) receives `eventName`. */
export function subscribesTo(subscriptions: readonly string[] | null, eventName: string): boolean {
  return (subscriptions ?? defaultEventSubscriptions).includes(eventName);
}
