import type { Attachment, AviaryEvent, EventName, EventOf, ToastAnswer } from '../src/index.js';
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
    expectTypeOf<EventAnswer<'chat.generateUrlPreview'>>().toEqualTypeOf<Attachment | undefined>();
    expectTypeOf<EventAnswer<'app.install'>>().toEqualTypeOf<undefined>();

    // @ts-expect-error a toast is {text}, not {txt}
    const misspelt: EventHandler<'client.slashCommand'> = () => ({ txt: 'done' });
    // @ts-expect-error a URL preview's colour is #rrggbb text, not a number
    const badPreview: EventHandler<'chat.generateUrlPreview'> = () => ({ title: 'x', color: 0x336699 });
    // @ts-expect-error app.install has nothing to answer
    const installAnswer: EventHandler<'app.install'> = () => ({ text: 'welcome' });
    // @ts-expect-error no handler for an event the protocol does not define
    const unknownEvent: EventHandlers = { 'chat.somethingNew': () => undefined };
    void [misspelt, badPreview, installAnswer, unknownEvent];
  });

  it('AviaryEvent is the union of the ten events, told apart by name', () => {
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
    >();
  });
});
