import { Type } from '@sinclair/typebox';
import { User } from '../../models.js';
import { defineRoute } from '../define.js';
import { closedObject } from '../fields.js';

export const updateProfile = defineRoute({
  name: 'client.updateProfile',
  summary: 'The person changes their own first or last name or their timezone (a UTC offset such as +01:00).',
  verb: 'PATCH',
  path: '/api/client/profile',
  callers: ['session'],
  params: closedObject({
    firstName: Type.Optional(Type.String({ description: 'the first name, trimmed, not empty' })),
    lastName: Type.Optional(Type.String({ description: 'the last name, trimmed, not empty' })),
    timezone: Type.Optional(Type.String({ description: 'a UTC offset such as +01:00 or -05:30' })),
  }),
  result: closedObject({ user: User }),
  errors: [],
});
