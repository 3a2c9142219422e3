import { api } from '@aviary/protocol';
import { listAudit } from '../../../core/audit/list.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';

const DEFAULT_PAGE = 50;

/** A team admin reads the team's audit log; its rows are never changed through the API. */
export default defineHandler(api.audit.list, async ({ cursor, limit, ...filter }, { user }, ctx) => {
  if (user.role !== 'admin') throw new ApiError('PermissionDenied', 'Only a team admin may read the team’s audit log.');
  return listAudit(ctx.db, user.team_id, filter, { cursor, limit: limit ?? DEFAULT_PAGE });
});
