import { api } from '@aviary/protocol';
import { presentFile } from '../../../core/files/presentFile.js';
import { finishUpload } from '../../../core/files/resumable.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.files.finishUpload, async ({ uploadId }, caller, ctx) => ({ file: presentFile(await finishUpload(ctx, caller, uploadId)) }));
