import type { MethodDefinition } from '../define.js';
import * as channels from './channels.js';
import * as chat from './chat.js';
import * as people from './people.js';
import * as search from './search.js';

/** Every method of the API, by namespace as the SDK exposes them. */
export const api = {
  channels: {
    addMembers: channels.addMembers,
    create: channels.create,
    getInfo: channels.getInfo,
    list: channels.list,
    listMembers: channels.listMembers,
    removeMembers: channels.removeMembers,
  },
  chat: { sendMessage: chat.sendMessage, fetchMessages: chat.fetchMessages, updateMessage: chat.updateMessage },
  roster: { listContacts: people.listContacts },
  search: { messages: search.messages },
  users: { getInfo: people.getInfo, getPublicProfile: people.getPublicProfile },
} as const;

type Api = typeof api;
export type MethodName = { [N in keyof Api]: { [M in keyof Api[N]]: Api[N][M] extends { name: infer X } ? X : never }[keyof Api[N]] }[keyof Api];

export const methodsByName: ReadonlyMap<string, MethodDefinition> = new Map<string, MethodDefinition>(
  Object.values(api).flatMap((namespace) => Object.values(namespace).map((method) => [method.name, method] as const)),
);
