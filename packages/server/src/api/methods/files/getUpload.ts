import { api } from '@aviary/protocol';
import { getUpload } from '../../../core/files/resumable.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.files.getUpload, async ({ uploadId }, caller, ctx) => ({ upload: await getUpload(ctx, caller, uploadId) }));
