import { api } from '@aviary/protocol';
import { findReadableFile } from '../../../core/files/fileAccess.js';
import { presentFile } from '../../../core/files/presentFile.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.files.getInfo, async ({ file }, caller, ctx) => ({ file: presentFile(await findReadableFile(ctx.db, caller, file)) }));
