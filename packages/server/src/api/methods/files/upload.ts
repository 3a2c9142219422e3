import { api } from '@aviary/protocol';
import { ApiError } from '../../../errors.js';
import { defineHandler } from '../../handler.js';

/**
 * files.upload is served by its own route (api/files/uploadRoute.ts), which streams the multipart body;
 * a POST never reaches the method table. A GET does: it carries no file.
 */
export default defineHandler(api.files.upload, async () => {
  throw new ApiError('InvalidRequestData', 'files.upload takes the file as multipart/form-data in a POST (a part named "file"); see docs/reference/files.md.');
});
