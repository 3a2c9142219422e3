import type { eventAnswerSchemas, UrlPreviewAnswer } from '@aviary/protocol';
import type { AnsweredEventName, Attachment, AviaryEvent, Branded, EventName, EventOf, ToastAnswer } from '../src/index.js';
import { describe, expectTypeOf, it } from 'vitest';
import { createEventListener, type EventAnswer, type EventHandler, type EventHandlers } from '../src/index.js';

// Compile-time checks: `npm test` type-checks this file, and each @ts-expect-error fails the build
// when the line below it compiles. The listener is never started.
const credentials = { appId: 'a:types', appSecret: 'types-only-secret' };

describe('the listener’s handlers are typed by the protocol', () => {
  it('gives each handler its own event', () => {
    createEventListener({
      ...credentials,
      on: {
        'client.slashCommand': (event) => {
          expectTypeOf(event).toEqualTypeOf<EventOf<'client.slashCommand'>>();
          expectTypeOf(event.command).toBeString();
          return { text: `ran /${event.command}` };
        },
        'chat.receiveMessage': (event) => {
          expectTypeOf(event.message.text).toBeString();
        },
        'client.pressButton': (event) => {
          if (event.button === 'attachmentButton') expectTypeOf(event.buttonId).toBeString();
          // @ts-expect-error only an attachment's button says which button it was
          return { text: event.buttonId };
        },
      },
    });
  });

  it('types what a handler answers', () => {
    expectTypeOf<EventAnswer<'client.slashCommand'>>().toEqualTypeOf<ToastAnswer | undefined>();
    expectTypeOf<EventAnswer<'chat.generateUrlPreview'>>().toEqualTypeOf<Branded<typeof UrlPreviewAnswer> | undefined>();
    expectTypeOf<Attachment>().toMatchTypeOf<NonNullable<EventAnswer<'chat.generateUrlPreview'>>>();
    expectTypeOf<{ attachment: null }>().toMatchTypeOf<NonNullable<EventAnswer<'chat.generateUrlPreview'>>>();
    expectTypeOf<EventAnswer<'app.install'>>().toEqualTypeOf<undefined>();
    // Every event whose answer the service reads takes the protocol's schema; the widget events' answers are ignored.
    expectTypeOf<EventAnswer<'client.pressButton'>>().toEqualTypeOf<ToastAnswer | undefined>();
    expectTypeOf<EventAnswer<'client.messageAction'>>().toEqualTypeOf<ToastAnswer | undefined>();
    expectTypeOf<EventAnswer<'client.servicemlAction'>>().toEqualTypeOf<ToastAnswer | undefined>();
    expectTypeOf<EventAnswer<'client.widgetAction'>>().toEqualTypeOf<undefined>();
    expectTypeOf<EventAnswer<'client.openAttachmentWidget'>>().toEqualTypeOf<undefined>();
    expectTypeOf<AnsweredEventName>().toEqualTypeOf<keyof typeof eventAnswerSchemas>();

    // @ts-expect-error a toast is {text}, not {txt}
    const misspelt: EventHandler<'client.slashCommand'> = () => ({ txt: 'done' });
    // @ts-expect-error a button's toast too
    const misspeltButton: EventHandler<'client.pressButton'> = () => ({ txt: 'done' });
    // @ts-expect-error a message action's toast too
    const misspeltAction: EventHandler<'client.messageAction'> = async () => ({ txt: 'done' });
    // @ts-expect-error a ServiceML action's toast too
    const misspeltServiceml: EventHandler<'client.servicemlAction'> = () => ({ txt: 'done' });
    // @ts-expect-error a widget's event has nothing to answer: the widget is already open
    const widgetToast: EventHandler<'client.widgetAction'> = () => ({ text: 'opened' });
    // @ts-expect-error a URL preview's colour is #rrggbb text, not a number
    const badPreview: EventHandler<'chat.generateUrlPreview'> = () => ({ title: 'x', color: 0x336699 });
    // @ts-expect-error app.install has nothing to answer
    const installAnswer: EventHandler<'app.install'> = () => ({ text: 'welcome' });
    // @ts-expect-error no handler for an event the protocol does not define
    const unknownEvent: EventHandlers = { 'chat.somethingNew': () => undefined };
    void [misspelt, misspeltButton, misspeltAction, misspeltServiceml, widgetToast, badPreview, installAnswer, unknownEvent];
  });

  it('AviaryEvent is the union of the ten events and Aviary’s own, told apart by name', () => {
    expectTypeOf<AviaryEvent['name']>().toEqualTypeOf<EventName>();
    expectTypeOf<EventName>().toEqualTypeOf<
      | 'app.install'
      | 'app.uninstall'
      | 'chat.generateUrlPreview'
      | 'chat.receiveMessage'
      | 'client.servicemlAction'
      | 'client.messageAction'
      | 'client.openAttachmentWidget'
      | 'client.pressButton'
      | 'client.slashCommand'
      | 'client.widgetAction'
      | 'chat.messageUpdated'
      | 'chat.messageDeleted'
      | 'chat.reactionAdded'
      | 'chat.reactionRemoved'
      | 'channel.memberJoined'
      | 'channel.memberLeft'
      | 'channel.created'
    >();
  });
});
