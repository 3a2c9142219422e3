import type { TokenBuckets } from './api/tokenBuckets.js';
import type { CoreContext } from './core/context.js';

/**
 * What every handler receives: no module reaches for globals. Core and events take the smaller
 * CoreContext / EventsContext, so they never depend on what only the API holds.
 */
export interface ServerContext extends CoreContext {
  rateLimits: TokenBuckets;
}
