import type { SessionReach } from '../../../core/commands/channels.js';
import type { PersonCaller, TokenCaller } from '../../caller.js';

/** A person's session reaches as far as the person (a team admin: every channel of the team); an app's token, only what its user sees. */
export const sessionReach = (caller: TokenCaller | PersonCaller): SessionReach | undefined =>
  caller.kind === 'person' ? { clientAddress: caller.clientAddress } : undefined;
