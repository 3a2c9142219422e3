import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { UserId } from '../ids.js';
import { PublicProfile, User } from '../models.js';

export const listContacts = defineMethod({
  name: 'roster.listContacts',
  summary: 'The caller’s active teammates and the bots of apps the caller installed.',
  callers: ['token', 'session'],
  rateClass: 'read',
  result: Type.Array(PublicProfile),
});

export const getInfo = defineMethod({
  name: 'users.getInfo',
  summary: 'The token’s own user.',
  callers: ['token', 'session'],
  rateClass: 'read',
  result: User,
});

export const getPublicProfile = defineMethod({
  name: 'users.getPublicProfile',
  summary: 'The public profile of a teammate.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({ userId: UserId }),
  result: PublicProfile,
  errors: ['UnknownUser'],
});
