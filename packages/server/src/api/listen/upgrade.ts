import { timingSafeEqual } from 'node:crypto';
import { listenAppIdOf } from '@aviary/protocol';
import type { ServerContext } from '../../context.js';
import { reachableApp, requireDeveloper } from '../developer/access.js';
import { ApiError } from '../errors.js';
import { bearerToken } from '../session/sessionToken.js';
import { upgradeSession, type UpgradeEndpoint } from '../upgrade.js';
import { secretDigest, type ListenGateway, type ListenOpener } from './gateway.js';

/**
 * `GET /api/developer/apps/:id/listen` (`aviary listen`) as a WebSocket endpoint (api/upgrade.ts opens
 * and refuses it). Who: `Authorization: Bearer` with the app's secret, or with the app developer's
 * session token, resolved as for calls.
 */
export function listenEndpoint(ctx: ServerContext, gateway: ListenGateway): UpgradeEndpoint<ListenOpener> {
  return {
    what: 'a listen connection',
    serves: (pathname) => listenAppIdOf(pathname) !== undefined,
    gateway,
    rateKey: (opener) => ('userId' in opener.by ? `session:${opener.by.userId}:listen` : `app:${opener.appId}:listen`),
    async authenticate(request, url) {
      const appId = listenAppIdOf(url.pathname)!;
      const token = bearerToken(request);
      if (token === undefined || token.length > 256) {
        throw new ApiError('NotSignedIn', "Send Authorization: Bearer with the app developer's session token or with the app's secret.");
      }
      const app = await ctx.db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
      if (app && sameSecret(token, app.secret)) return { appId: app.id, by: { secretDigest: secretDigest(app.secret) } };
      const { person, sessionHash } = await upgradeSession(ctx, token);
      const reachable = await reachableApp(ctx.db, person, appId);
      requireDeveloper(reachable, 'listen to its events', 'events carry what people sent the app');
      return { appId: reachable.app.id, by: { userId: person.id, sessionHash } };
    },
  };
}

/** Compared as digests, so the comparison takes the same time whatever the lengths. */
function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(Buffer.from(secretDigest(given), 'base64'), Buffer.from(secretDigest(secret), 'base64'));
}
