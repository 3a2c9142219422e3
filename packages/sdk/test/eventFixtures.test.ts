import { Value } from '@sinclair/typebox/value';
import { AnyEvent, eventNames, eventSchemas } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { makeEvent } from './helpers/events.js';

/** The SDK's tests build events from these fixtures: they must be events the protocol accepts. */
describe('the SDK tests’ event fixtures', () => {
  it.each(eventNames.map((name) => [name] as const))('%s is a valid event, alone and as AnyEvent', (name) => {
    const event = makeEvent(name);
    expect([...Value.Errors(eventSchemas[name], event)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
    expect(Value.Check(AnyEvent, event)).toBe(true);
  });
});
