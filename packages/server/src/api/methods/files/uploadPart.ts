import { api } from '@aviary/protocol';
import { ApiError } from '../../../errors.js';
import { defineHandler } from '../../handler.js';

/**
 * files.uploadPart is served by its own route (api/files/partRoute.ts), which streams the body to
 * storage; a POST never reaches the method table. A GET does: it carries no part.
 */
export default defineHandler(api.files.uploadPart, async () => {
  throw new ApiError('InvalidRequestData', 'files.uploadPart takes the part as the body of a POST, with uploadId and offset in the query string; see docs/reference/files.md.');
});
