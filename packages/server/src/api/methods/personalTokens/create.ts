import { api } from '@aviary/protocol';
import { createPersonalToken } from '../../../core/commands/personalTokens.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.personalTokens.create, async ({ name, expiresInDays }, { user, clientAddress }, ctx) =>
  createPersonalToken(ctx, { person: user, address: clientAddress }, { name, expiresInDays }),
);
