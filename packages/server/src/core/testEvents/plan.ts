import { eventSchemas, exampleEventFrom, isWidgetEvent, type Action, type AnyEvent, type EventName, type ServiceWidgetType, type TestEventOverrides, type WidgetEvent } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { invalidParameter, missingParameter } from '../../errors.js';
import type { Integrations } from '../integrations.js';

/** A test event and where it goes: where a real one would, by the integration's action. */
export type TestEventPlan =
  | { to: 'listener'; event: AnyEvent }
  | { to: 'widget'; event: WidgetEvent; route: 'widget' | 'browser'; url: string; widgetType: ServiceWidgetType; sendContext: boolean };

export interface TestEventPerson {
  id: string;
  firstName: string;
  lastName: string;
}

const buttonIntegrations = { appLauncherButton: 'launcherButton', chatTabButton: 'chatTabButton', attachmentPickerButton: 'attachmentPickerButton' } as const;

/**
 * The test event of `name` from `person` (`aviary trigger`, the dashboard's "Send a test event"): the
 * protocol's example, or the `payload` given, with the fields given. A slash command or a button is the
 * app's own (the one named, else its first), so that the app's handlers answer something, and the event
 * goes where its action sends a real one: a widget or browser URL, else the listener.
 */
export function planTestEvent(name: EventName, person: TestEventPerson, integrations: Integrations, overrides: TestEventOverrides & { chatName?: string }): TestEventPlan {
  const base: Record<string, unknown> = overrides.payload ? { ...overrides.payload, name, userId: person.id } : { ...exampleEventFrom(name, person) };
  if (overrides.chat !== undefined && 'chat' in base) Object.assign(base, { chat: overrides.chat, ...(overrides.chatName !== undefined ? { chatName: overrides.chatName } : {}) });
  if (overrides.chat !== undefined && name === 'chat.generateUrlPreview') Object.assign(base, { chat: overrides.chat, to: overrides.chat });
  let action: Action | undefined;
  let widgetType: ServiceWidgetType = 'modal';
  // Only the fields that apply to the event's name are read; the others are left alone, as the example has them.
  switch (name) {
    case 'client.slashCommand': {
      const wanted = overrides.command ?? (overrides.payload ? (base.command as string | undefined) : integrations.slashCommands[0]?.name);
      const own = integrations.slashCommands.find((command) => command.name === wanted);
      if (wanted !== undefined) base.command = wanted;
      if (overrides.text !== undefined) base.text = overrides.text;
      action = own?.action;
      break;
    }
    case 'client.pressButton': {
      const kind = overrides.button ?? (overrides.buttonId !== undefined ? 'attachmentButton' : overrides.payload ? (base.button as string) : firstOwnButton(integrations));
      if (kind !== 'attachmentButton' && kind !== undefined && kind in buttonIntegrations) {
        for (const field of ['messageUid', 'attachmentId', 'buttonId']) delete base[field];
        base.button = kind;
        const own = integrations[buttonIntegrations[kind as keyof typeof buttonIntegrations]];
        action = own?.action;
      } else if (kind === 'appHome') {
        // The home tab: its widget, in the sidebar, as the web client opens it.
        for (const field of ['messageUid', 'attachmentId', 'buttonId']) delete base[field];
        base.button = kind;
        action = integrations.appHome && { type: 'openWidget', url: integrations.appHome.url, desktopType: 'sidebar' };
      } else if (overrides.buttonId !== undefined) {
        base.buttonId = overrides.buttonId;
      }
      break;
    }
    case 'chat.generateUrlPreview': {
      const domain = integrations.previewDomains[0];
      if (overrides.url !== undefined) base.url = overrides.url;
      else if (domain !== undefined && !overrides.payload) base.url = `https://${domain.replace(/^\*\./, 'www.')}/`;
      break;
    }
    case 'client.openAttachmentWidget': {
      // Only ever a widget: the attachment's widget view, whose URL the test names.
      if (overrides.url === undefined) throw missingParameter('url');
      action = { type: 'openWidget', url: overrides.url };
      widgetType = 'attachment';
      break;
    }
  }
  const event = checked(name, base);
  if (action === undefined || action.type === 'sendEvent' || !isWidgetEvent(event) || action.url === undefined) return { to: 'listener', event };
  if (action.type === 'openWidget' && name !== 'client.openAttachmentWidget') widgetType = action.desktopType ?? 'modal';
  return { to: 'widget', event, route: action.type === 'openBrowser' ? 'browser' : 'widget', url: action.url, widgetType, sendContext: action.sendContext === true };
}

function firstOwnButton(integrations: Integrations): string | undefined {
  return (Object.keys(buttonIntegrations) as Array<keyof typeof buttonIntegrations>).find((kind) => integrations[buttonIntegrations[kind]] !== undefined);
}

/** The event as the schema of its name has it; else the first thing wrong with it, on the parameter that caused it. */
function checked(name: EventName, event: Record<string, unknown>): AnyEvent {
  const schema = eventSchemas[name];
  if (Value.Check(schema, event)) return event as AnyEvent;
  const first = Value.Errors(schema, event).First();
  const where = first?.path ? ` at ${first.path}` : '';
  throw invalidParameter('payload', `The test ${name} is not one the platform would send${where}: ${first?.message ?? 'it does not match the event'}.`);
}
