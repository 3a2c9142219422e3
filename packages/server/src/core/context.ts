import type { Config } from '../config.js';
import type { EventsContext } from '../events/context.js';
import type { BackgroundWork } from './triggers/backgroundWork.js';

/** What commands, policies and interactions take: the event code's needs, the configuration, background work. */
export interface CoreContext extends EventsContext {
  config: Config;
  /** Work started after a request was answered (URL previews); shutdown waits for it. */
  background: BackgroundWork;
}
