import { api } from '@aviary/protocol';
import { startUpload } from '../../../core/files/resumable.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.files.startUpload, async (params, caller, ctx) => ({ upload: await startUpload(ctx, caller, params) }));
