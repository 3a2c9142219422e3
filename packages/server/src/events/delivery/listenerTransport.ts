import { noListenerResult } from './attempts.js';
import { callListener, type CallCanceller, type ListenerCall, type ListenerCallResult, type AttemptResult } from './listenerCall.js';
import type { EventsRuntime } from './runtime.js';

/**
 * The one choice of how an event reaches an app: over a listen connection while the app has one open
 * in this process (`aviary listen`), else a POST to its listener URL, else nowhere (`noListenerResult`).
 * Either way the same headers and body go, and the result is judged the same.
 */
export function callAppListener(
  runtime: Pick<EventsRuntime, 'agent' | 'tunnels'>,
  app: { id: string; listener_url: string | null },
  call: Omit<ListenerCall, 'url' | 'cancel'> & { cancel: CallCanceller },
): Promise<ListenerCallResult>;
export function callAppListener(
  runtime: Pick<EventsRuntime, 'agent' | 'tunnels'>,
  app: { id: string; listener_url: string | null },
  call: Omit<ListenerCall, 'url' | 'cancel'>,
): Promise<AttemptResult>;
export function callAppListener(
  runtime: Pick<EventsRuntime, 'agent' | 'tunnels'>,
  app: { id: string; listener_url: string | null },
  call: Omit<ListenerCall, 'url'>,
): Promise<ListenerCallResult> {
  const overListen = runtime.tunnels.call(app.id, call);
  if (overListen) return overListen;
  if (app.listener_url === null) return Promise.resolve(noListenerResult);
  return callListener(runtime.agent, { ...call, url: app.listener_url });
}
