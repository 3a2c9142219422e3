import { api } from '@aviary/protocol';
import { changeFollow, listFollowed, markThreadRead } from '../../../core/threads/follows.js';
import { defineHandler } from '../../handler.js';

/** The handlers of threads.*, spread into the method table (../index.ts). */
export const threadHandlers = {
  'threads.list': defineHandler(api.threads.list, async ({ cursor, limit }, { user }, ctx) => listFollowed(ctx.db, user, { cursor, limit: limit ?? 30 })),
  'threads.follow': defineHandler(api.threads.follow, async ({ messageUid }, { user }, ctx) => changeFollow(ctx, user, { messageUid, following: true })),
  'threads.unfollow': defineHandler(api.threads.unfollow, async ({ messageUid }, { user }, ctx) => changeFollow(ctx, user, { messageUid, following: false })),
  'threads.markRead': defineHandler(api.threads.markRead, async (params, { user }, ctx) => markThreadRead(ctx, user, params)),
};
