import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import * as serviceml from '@aviary/serviceml';
import { describe, expect, it } from 'vitest';
import {
  Action,
  AnyEvent,
  Attachment,
  eventAnswerSchemas,
  eventExamples,
  eventNames,
  eventSchemas,
  InteractionAnswer,
  Integrations,
  UrlPreviewAnswer,
  type EventName,
} from '../src/index.js';

function problems(schema: TSchema, value: unknown): string[] {
  return [...Value.Errors(schema, value)].map((error) => `${error.path || '/'}: ${error.message}`);
}

const checkable = (value: unknown) => ({
  against: (schema: TSchema) => expect(problems(schema, value), JSON.stringify(value)).toEqual([]),
});

describe.each(eventNames.map((name) => [name] as const))('the %s schema', (name: EventName) => {
  const schema = eventSchemas[name];

  it('accepts the reference example, alone and as AnyEvent', () => {
    checkable(eventExamples[name]).against(schema);
    checkable(eventExamples[name]).against(AnyEvent);
  });

  it('is closed, and names its own event only', () => {
    const example = eventExamples[name];
    expect(Value.Check(schema, { ...example, surprise: true })).toBe(false);
    expect(Value.Check(schema, { ...example, name: name === 'app.install' ? 'app.uninstall' : 'app.install' })).toBe(false);
    const { userId: _userId, ...withoutUser } = example;
    expect(Value.Check(schema, withoutUser)).toBe(false);
    expect(Value.Check(schema, { ...example, userId: 'alice' })).toBe(false);
  });
});

describe('the event schemas', () => {
  it('hold each client.* event to the common attributes', () => {
    for (const name of eventNames.filter((candidate) => candidate.startsWith('client.'))) {
      const { chatName: _chatName, ...withoutChatName } = eventExamples[name] as { chatName: string };
      expect(Value.Check(eventSchemas[name], withoutChatName), name).toBe(false);
    }
  });

  it('tell an attachment button from the app’s own buttons', () => {
    const pressed = eventExamples['client.pressButton'];
    expect(Value.Check(eventSchemas['client.pressButton'], { ...pressed, button: 'chatTabButton' })).toBe(false);
    const { messageUid: _m, attachmentId: _a, buttonId: _b, ...bare } = pressed as Record<string, unknown>;
    expect(Value.Check(eventSchemas['client.pressButton'], { ...bare, button: 'chatTabButton' })).toBe(true);
    expect(Value.Check(eventSchemas['client.pressButton'], { ...bare, button: 'attachmentButton' })).toBe(false);
  });

  it('describe the answers the service reads', () => {
    expect(Object.keys(eventAnswerSchemas).sort()).toEqual(
      ['chat.generateUrlPreview', 'client.messageAction', 'client.pressButton', 'client.servicemlAction', 'client.slashCommand'].sort(),
    );
    checkable({ attachment: { title: 'Issue 42' } }).against(UrlPreviewAnswer);
    checkable({ title: 'Issue 42' }).against(UrlPreviewAnswer);
    checkable({ attachment: null }).against(UrlPreviewAnswer);
    expect(Value.Check(UrlPreviewAnswer, { attachment: { colour: '#fff' } })).toBe(false);
  });
});

describe('Attachment and Action describe what @aviary/serviceml leaves after validating', () => {
  const loose = {
    id: 'deploy-42',
    appId: null,
    title: 'Deploy #42',
    color: '#1A2B3C',
    url: '  https://ci.example.com/runs/42 ',
    forward: 'true',
    views: {
      widget: { src: 'https://ci.example.com/widget', width: '400', height: 300 },
      html: { inline: '<p>green</p>' },
      serviceml: '<serviceml><action id="retry" type="sendToApp">Retry</action></serviceml>',
      image: { original: { src: 'https://ci.example.com/a.png', width: 10 }, thumbnail: { src: 'https://ci.example.com/t.png' }, filename: 'a.png' },
    },
    downloads: [{ src: 'https://ci.example.com/log.txt', mime: 'text/plain', filename: 'log.txt', size: '2048' }],
    buttons: [
      { name: 'Approve', id: 'approve', icon: 'https://ci.example.com/ok.png', action: { type: 'sendToAppService' } },
      { name: 'Open', id: 'open', action: { type: 'openWidget', url: 'https://ci.example.com/w', desktopType: 'sidebar', mobileType: 'modal' } },
      { name: 'Web', id: 'web', action: { type: 'openBrowser', url: 'https://ci.example.com/', sendContext: 'false' } },
    ],
  };

  it('a normalised attachment is an Attachment; the loose input is not', () => {
    const result = serviceml.validateAttachments([loose]);
    if (!result.ok) throw new Error(result.description);
    checkable(result.value[0]).against(Attachment);
    expect(Value.Check(Attachment, loose)).toBe(false);
  });

  it('a normalised action is an Action', () => {
    for (const action of [{ type: 'sendToApp' }, { type: 'openBrowser', url: ' https://x.example.com/ ', sendContext: 'true' }]) {
      const result = serviceml.validateAction(action, 'action');
      if (!result.ok) throw new Error(result.description);
      checkable(result.value).against(Action);
    }
  });

  it('refuses what serviceml refuses for its own reasons', () => {
    expect(Value.Check(Attachment, { color: '#ABCDEF' })).toBe(false);
    expect(Value.Check(Attachment, { url: 'javascript:alert(1)' })).toBe(false);
    expect(Value.Check(Attachment, { buttons: [{ name: 'x', id: 'x', action: { type: 'sendToApp' } }] })).toBe(false);
    expect(Value.Check(Attachment, { views: { widget: { src: 'https://a.example.com/', width: 0 } } })).toBe(false);
  });
});

describe('Integrations and InteractionAnswer', () => {
  it('Integrations takes the stored form, as serviceml’s validation leaves it, and refuses what that refuses', () => {
    const action = { type: 'sendEvent' } as const;
    checkable({
      slashCommands: [{ name: 'deploy', description: 'Deploys', action }],
      launcherButton: { name: 'Open', icon: 'https://example.com/i.png', action: { type: 'openWidget', url: 'https://example.com/w' } },
      messageAction: { name: 'Summarise', action },
      previewDomains: ['example.com', '*.example.org'],
    }).against(Integrations);
    const empty = { slashCommands: [], previewDomains: [] };
    checkable(empty).against(Integrations);
    for (const wrong of [
      { ...empty, previewDomains: ['*.com'] },
      { ...empty, previewDomains: ['Example.com'] },
      { ...empty, slashCommands: [{ name: '/deploy', action }] },
      { ...empty, chatTabButton: { name: '', action } },
      { ...empty, sidebar: {} },
    ]) {
      expect(Value.Check(Integrations, wrong), JSON.stringify(wrong)).toBe(false);
      expect(serviceml.validateIntegrations(wrong).ok, JSON.stringify(wrong)).toBe(false);
    }
    const loose = {
      slashCommands: [{ name: 'deploy', action: { type: 'sendToApp' } }],
      chatTabButton: { name: 'Tab', icon: ' https://example.com/i.png ', action: { type: 'openBrowser', url: 'https://example.com/', sendContext: 'true' } },
      messageAction: null,
    };
    expect(Value.Check(Integrations, loose)).toBe(false);
    const normalised = serviceml.validateIntegrations(loose);
    if (!normalised.ok) throw new Error(normalised.description);
    checkable(normalised.value).against(Integrations);
  });

  it('InteractionAnswer is one of the five kinds', () => {
    for (const answer of [
      { kind: 'none' },
      { kind: 'toast', text: 'Deployed' },
      { kind: 'openWidget', url: 'https://example.com/w?serviceEvent=…', desktopType: 'sidebar', mobileType: 'modal' },
      { kind: 'openBrowser', url: 'https://example.com/' },
      { kind: 'attachmentWidget', url: 'https://example.com/chart', width: 400 },
    ]) {
      checkable(answer).against(InteractionAnswer);
    }
    expect(Value.Check(InteractionAnswer, { kind: 'toast', text: 'x'.repeat(101) })).toBe(false);
    expect(Value.Check(InteractionAnswer, { kind: 'redirect', url: 'https://example.com/' })).toBe(false);
  });

  it('counts a toast’s 100 characters as the server cuts them: an emoji is one character, not two UTF-16 units', () => {
    const toast = (text: string) => Value.Check(InteractionAnswer, { kind: 'toast', text });
    expect(toast(`${'☀'.repeat(99)}🌧`)).toBe(true);
    expect(toast('🌧'.repeat(100))).toBe(true);
    expect(toast('🌧'.repeat(101))).toBe(false);
    expect(toast(`${'x'.repeat(100)}\n`)).toBe(false);
    expect(toast('')).toBe(false);
  });
});
