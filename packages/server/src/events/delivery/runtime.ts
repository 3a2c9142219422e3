import type { FastifyBaseLogger } from 'fastify';
import type { Agent } from 'undici';
import type { Config } from '../../config.js';
import { InternalHostsAllowList } from '../../net/addressPolicy.js';
import { guardedAgent, guardedConnectionProbe, type GuardedAgentOptions } from '../../net/guardedAgent.js';
import { ListenTunnels } from './listenTunnels.js';
import { deliverySettings, type DeliverySettings } from './settings.js';

/** Which addresses listener calls may reach: see net/guardedAgent.ts. */
export type ListenerReach = Pick<GuardedAgentOptions, 'allowList' | 'dnsServers' | 'onRefused'>;

/**
 * The event engine as the rest of the server sees it (`ctx.events`): one HTTP agent for every delivery,
 * the settings, and `wake()`. Without a worker attached (the CLI) `wake()` does nothing: a running
 * server's poll finds the events.
 */
export class EventsRuntime {
  readonly settings: DeliverySettings;
  /**
   * Dedicated to listener calls, so their connection pool and time-outs are apart from anything else.
   * It refuses internal addresses (a listener URL is whatever a developer typed) unless they are allowed.
   */
  readonly agent: Agent;
  /** Whether a connection to a listener URL can be made now (under the agent's address policy); nothing is sent. */
  readonly canConnect: (url: string) => Promise<boolean>;
  /** The listen connections open in this process: while an app has one, its events go there. */
  readonly tunnels = new ListenTunnels();
  private worker: { wake(): void; idle(): Promise<void> } | undefined;
  private deliveryWatch: DeliveryWatch | undefined;

  constructor(reach: ListenerReach, settings: Partial<DeliverySettings> = {}) {
    this.settings = deliverySettings(settings);
    const policy = { ...reach, connectTimeoutMs: this.settings.connectTimeoutMs };
    // Each call's own deadline bounds the whole answer (synchronous events have their own limits).
    this.agent = guardedAgent({ ...policy, headersTimeout: 0, bodyTimeout: 0 });
    this.canConnect = guardedConnectionProbe(policy);
  }

  /** Call after committing a transaction that enqueued events: the worker starts on them at once. */
  wake(): void {
    this.worker?.wake();
  }

  /** Tells the server's delivery watch (the developers' `delivery.changed` stream frames) that an app's delivery log changed. */
  deliveryChanged(appId: string, eventIds: readonly string[] = []): void {
    this.deliveryWatch?.changed(appId, eventIds);
  }

  /** Set by the server; without one (the CLI) nobody is told. Closed, so that it writes what it holds, before the store. */
  watchDelivery(watch: DeliveryWatch): void {
    this.deliveryWatch = watch;
  }

  /** Resolves when the worker has sent everything due now and recorded it (see DeliveryWorker.idle). */
  async idle(): Promise<void> {
    await this.worker?.idle();
  }

  attachWorker(worker: { wake(): void; idle(): Promise<void> }): void {
    this.worker = worker;
  }

  async close(): Promise<void> {
    this.worker = undefined;
    await this.deliveryWatch?.close();
    await this.agent.close();
  }
}

/** Who hears of changes to the apps' delivery logs (core/stream/deliveryNotices.ts). */
export interface DeliveryWatch {
  changed(appId: string, eventIds: readonly string[]): void;
  close(): Promise<void>;
}

/** The runtime a configuration asks for: listener calls reach the internal hosts it allows, and each refusal is logged. */
export function eventsRuntimeFor(
  config: Pick<Config, 'allowedInternalHosts' | 'dnsServers'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
  settings: Partial<DeliverySettings> = {},
): EventsRuntime {
  return new EventsRuntime(
    {
      allowList: InternalHostsAllowList.parse(config.allowedInternalHosts),
      dnsServers: config.dnsServers,
      onRefused: ({ host, address, kind, message }) => log.warn({ host, address, kind }, `refused a request to a URL a person gave: ${message}`),
    },
    settings,
  );
}
