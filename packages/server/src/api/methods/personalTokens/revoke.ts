import { api } from '@aviary/protocol';
import { revokePersonalToken } from '../../../core/commands/personalTokens.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.personalTokens.revoke, async ({ tokenId }, { user, clientAddress }, ctx) => {
  await revokePersonalToken(ctx, { person: user, address: clientAddress }, { tokenId });
  return {};
});
