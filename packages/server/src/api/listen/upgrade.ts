import { listenAppIdOf } from '@aviary/protocol';
import type { ServerContext } from '../../context.js';
import { findApp } from '../../core/queries/apps.js';
import { looksLikeAppSecret, notTheAppSecret, sameSecret } from '../appSecretCaller.js';
import { reachAppFor } from '../developerAccess.js';
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
      const app = await findApp(ctx.db, appId);
      if (app && sameSecret(token, app.secret)) return { appId: app.id, by: { secretDigest: secretDigest(app.secret) } };
      // A secret that is not this app's (a rotated one, another app's): said so, as a method says it.
      if (looksLikeAppSecret(token)) throw notTheAppSecret(appId, "send that app's current secret, or the developer's session token");
      const { person, sessionHash } = await upgradeSession(ctx, token);
      const reached = await reachAppFor(ctx.db, { kind: 'person', user: person }, appId, 'deliveries', 'listen to its events');
      return { appId: reached.id, by: { userId: person.id, sessionHash } };
    },
  };
}
