import { describe, expect, it } from 'vitest';
import { attachmentWithOurNames, eventExamples, flockNamedEvent, serviceMLFromFlockML, subscribesTo, defaultEventSubscriptions } from '../src/index.js';

describe('Flock-compatible naming (docs/flock-compatibility.md)', () => {
  it('renames client.servicemlAction, adds messageId to chat.generateUrlPreview, and leaves every other event as it is', () => {
    const action = eventExamples['client.servicemlAction'];
    expect(flockNamedEvent(action)).toEqual({ ...action, name: 'client.flockmlAction' });
    const preview = eventExamples['chat.generateUrlPreview'];
    expect(flockNamedEvent(preview)).toEqual({ ...preview, messageId: preview.messageUid });
    for (const name of ['app.install', 'chat.receiveMessage', 'client.slashCommand', 'client.pressButton'] as const) {
      expect(flockNamedEvent(eventExamples[name])).toBe(eventExamples[name]);
    }
  });

  it('reads a <flockml> document as the same <serviceml> one, and nothing else', () => {
    expect(serviceMLFromFlockML('<flockml>a <b>b</b></flockml>')).toBe('<serviceml>a <b>b</b></serviceml>');
    expect(serviceMLFromFlockML('\n  <flockml>x</flockml>\n')).toBe('\n  <serviceml>x</serviceml>\n');
    expect(serviceMLFromFlockML('<serviceml>x</serviceml>')).toBe('<serviceml>x</serviceml>');
    // Left open: renamed, so that ServiceML's check says it is never closed.
    expect(serviceMLFromFlockML('<flockml>x')).toBe('<serviceml>x');
    expect(serviceMLFromFlockML('text <flockml>x</flockml>')).toBe('text <flockml>x</flockml>');
    expect(serviceMLFromFlockML(42)).toBe(42);
  });

  it('gives an attachment’s views.flockml as views.serviceml, and says when both are given', () => {
    expect(attachmentWithOurNames({ id: 'a', views: { flockml: '<flockml>x</flockml>', image: 1 } })).toEqual({
      attachment: { id: 'a', views: { serviceml: '<serviceml>x</serviceml>', image: 1 } },
      both: false,
    });
    expect(attachmentWithOurNames({ views: { flockml: '<flockml>x</flockml>', serviceml: 'y' } })?.both).toBe(true);
    for (const other of [{ views: { serviceml: 'y' } }, { title: 't' }, null, 'text', [{ views: { flockml: 'x' } }]]) {
      expect(attachmentWithOurNames(other)).toBeUndefined();
    }
  });
});

describe('event subscriptions (docs/reference/event-subscriptions.md)', () => {
  it('null is the defaults, the events of the specification; a list is exactly what it names', () => {
    expect(defaultEventSubscriptions).toHaveLength(10);
    expect(subscribesTo(null, 'chat.receiveMessage')).toBe(true);
    expect(subscribesTo([], 'chat.receiveMessage')).toBe(false);
    expect(subscribesTo(['app.install'], 'app.install')).toBe(true);
    expect(subscribesTo(['app.install'], 'app.uninstall')).toBe(false);
  });
});
