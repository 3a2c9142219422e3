import type { EventName } from '@aviary/protocol';

/** The ten events (the protocol's `eventNames`, written out so the page does not bundle TypeBox). */
export const EVENT_NAMES: readonly EventName[] = [
  'app.install', 'app.uninstall', 'chat.receiveMessage', 'chat.generateUrlPreview', 'client.pressButton',
  'client.slashCommand', 'client.messageAction', 'client.openAttachmentWidget', 'client.widgetAction', 'client.servicemlAction',
];
