import { api } from '@aviary/protocol';
import { deleteFile } from '../../../core/files/fileCommands.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.files.delete, async ({ file }, caller, ctx) => {
  await deleteFile(ctx, caller, { file });
  return { file };
});
