import { methodsByName } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { handlersByMethod, type HandlerTable } from '../../src/api/methods/index.js';

describe('the handler table', () => {
  it('has exactly one handler for each protocol method, filed under that method’s name', () => {
    expect(Object.keys(handlersByMethod).sort()).toEqual([...methodsByName.keys()].sort());
    for (const [name, handler] of Object.entries(handlersByMethod)) {
      expect(handler.method, name).toBe(methodsByName.get(name));
    }
  });

  it('is checked for completeness by the type system', () => {
    const { 'chat.sendMessage': _missing, ...withoutSendMessage } = handlersByMethod;
    // @ts-expect-error a protocol method without a handler does not make a HandlerTable
    const incomplete: HandlerTable = withoutSendMessage;
    // @ts-expect-error a handler filed under another method's name does not either
    const misfiled: HandlerTable = { ...handlersByMethod, 'chat.sendMessage': handlersByMethod['chat.fetchMessages'] };
    expect([incomplete, misfiled]).toHaveLength(2);
  });
});
