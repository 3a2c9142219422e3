import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChatId } from '../ids.js';
import { Message } from '../models.js';
import { DoNotDisturbSchedule, NotificationSettings, notificationLevels } from '../notifications.js';
import { Clearable, closedObject, NonEmptyString, oneOf } from '../params.js';
import { Team } from './team.js';

/** The largest page of chat.listMentions. */
export const maxMentionsPage = 100;
/** The longest pause of notifications: a week. */
export const maxPauseHours = 168;

const MentionsCursor = Type.String({ pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', description: 'nextCursor of the previous page (a message uid)' });

export const listMentions = defineMethod({
  name: 'chat.listMentions',
  summary:
    'The recent messages that mention the person (by name, or @channel / @here in a channel they are a member of), in the chats they ' +
    'read, newest first, by keyset pages: pass nextCursor as `cursor` for the next page.',
  callers: ['session'],
  rateClass: 'read',
  params: closedObject({
    cursor: Type.Optional(MentionsCursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxMentionsPage, description: `page size, 1 to ${maxMentionsPage} (default 50)` })),
  }),
  result: closedObject({ messages: Type.Array(Message), nextCursor: Type.Optional(MentionsCursor) }),
});

const settingsAnswer = closedObject({ settings: NotificationSettings });

export const getSettings = defineMethod({
  name: 'notifications.getSettings',
  summary: 'The person’s notification settings: the level of each chat set apart from the default (mentions), their do-not-disturb schedule and pause.',
  callers: ['session'],
  rateClass: 'read',
  result: settingsAnswer,
});

export const setChatLevel = defineMethod({
  name: 'notifications.setChatLevel',
  summary:
    'Set what a chat the person reads notifies them of: every message (all), only mentions and, in a direct chat, every message (mentions, the default), or nothing (mute). ' +
    'Their other tabs get notifications.changed.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ chat: ChatId, level: oneOf(notificationLevels, 'all, mentions or mute') }),
  result: settingsAnswer,
  errors: ['UnknownChat'],
});

export const setDoNotDisturb = defineMethod({
  name: 'notifications.setDoNotDisturb',
  summary:
    'Set do-not-disturb: a weekly schedule in the person’s time zone (null removes it), and/or a pause of notifications for some hours from now (0 ends it). ' +
    'Settings left out stay; their other tabs get notifications.changed.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    schedule: Type.Optional(Clearable(DoNotDisturbSchedule, 'days (0 Sunday … 6 Saturday), start and end (HH:MM); null removes it')),
    pauseHours: Type.Optional(Type.Integer({ minimum: 0, maximum: maxPauseHours, description: `hours from now to pause notifications for, 1 to ${maxPauseHours}; 0 ends a pause` })),
  }),
  result: settingsAnswer,
});

export const updateMentionSettings = defineMethod({
  name: 'team.updateMentionSettings',
  summary:
    'A team admin sets the size of channel above which only team admins may use @channel and @here (0: anyone, in any channel).',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    broadcastMentionLimit: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'a channel member count; above it only team admins may use @channel and @here; 0: no limit' }),
  }),
  result: closedObject({ team: Team }),
  errors: ['PermissionDenied'],
});

const PushKeys = closedObject({
  p256dh: NonEmptyString(200, 'the subscription’s public key (base64url), from PushSubscription.toJSON().keys'),
  auth: NonEmptyString(100, 'the subscription’s auth secret (base64url)'),
});

export const getPushKey = defineMethod({
  name: 'push.getPublicKey',
  summary: 'The server’s VAPID public key (base64url), the applicationServerKey a browser subscribes to Web Push with.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ publicKey: Type.String() }),
});

export const subscribe = defineMethod({
  name: 'push.subscribe',
  summary:
    'Register a browser’s Web Push subscription for the person: direct messages and mentions are pushed to it while they have no stream open, ' +
    'unless the chat is muted or do-not-disturb holds. Subscribing an endpoint again replaces its keys.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    endpoint: NonEmptyString(2000, 'the push service URL (https; http only on loopback, for tests)'),
    keys: PushKeys,
  }),
  result: closedObject({ endpoint: Type.String() }),
});

export const unsubscribe = defineMethod({
  name: 'push.unsubscribe',
  summary: 'Forget one of the person’s Web Push subscriptions; one that is not theirs changes nothing.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ endpoint: NonEmptyString(2000, 'the endpoint given to push.subscribe') }),
  result: closedObject({ endpoint: Type.String() }),
});
