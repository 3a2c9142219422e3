import { api } from '@aviary/protocol';
import { listPins } from '../../../core/queries/pins.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.pins.list, async ({ chat }, { user }, ctx) => ({ pins: await listPins(ctx.db, user, chat) }));
