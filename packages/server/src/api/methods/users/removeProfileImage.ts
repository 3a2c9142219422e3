import { api } from '@aviary/protocol';
import { setProfilePicture } from '../../../core/pictures/ownerPictures.js';
import { presentUser } from '../../../core/presenters/users.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.users.removeProfileImage, async (_params, { user }, ctx) => ({ user: presentUser(await setProfilePicture(ctx, user, { fileId: null }), ctx.now()) }));
