/**
 * The developer API as the dashboard calls it (docs/reference/developer-api.md): apps, integrations,
 * bot and secret, and the delivery log. Same session cookie and error handling as ../api/client.ts.
 */
import type { DeliveredEvent, DeliveryAttempt, DeliveryStatus, DeveloperApp, Integrations } from '@aviary/protocol';
import { query, request } from './client';

export type { DeveloperApp, DeliveredEvent, DeliveryAttempt, DeliveryStatus };
/** As the protocol lists them (deliveryStatuses), kept here so the page does not bundle TypeBox. */
export const deliveryStatuses: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'paused'];

export type AppFields = Partial<Pick<DeveloperApp, 'name' | 'description' | 'icon' | 'listenerUrl' | 'configurationUrl' | 'allowedOrigins'>>;

export interface BotCredentials {
  botUserId: string;
  botToken: string;
}

const appPath = (id: string, rest = '') => `/api/developer/apps/${encodeURIComponent(id)}${rest}`;

export const developerApi = {
  listApps: () => request<{ apps: DeveloperApp[] }>('GET', '/api/developer/apps'),
  createApp: (fields: AppFields & { name: string }) => request<{ app: DeveloperApp }>('POST', '/api/developer/apps', fields),
  updateApp: (id: string, fields: AppFields) => request<{ app: DeveloperApp }>('PATCH', appPath(id), fields),
  deleteApp: (id: string) => request<{ deleted: true }>('DELETE', appPath(id)),
  setIntegrations: (id: string, integrations: unknown) => request<{ integrations: Integrations }>('PUT', appPath(id, '/integrations'), integrations),
  rotateSecret: (id: string) => request<{ secret: string; previousSecretUntil: number }>('POST', appPath(id, '/secret'), {}),
  enableBot: (id: string) => request<BotCredentials>('POST', appPath(id, '/bot'), {}),
  regenerateBotToken: (id: string) => request<BotCredentials>('POST', appPath(id, '/bot/token'), {}),
  listEvents: (id: string, filter: { status?: DeliveryStatus; name?: string; limit?: number }) =>
    request<{ events: DeliveredEvent[] }>('GET', appPath(id, `/events?${query(filter)}`)),
  listAttempts: (id: string, eventId: string) => request<{ attempts: DeliveryAttempt[] }>('GET', appPath(id, `/events/${encodeURIComponent(eventId)}/attempts`)),
  replayEvent: (id: string, eventId: string) => request<{ replayed: true }>('POST', appPath(id, `/events/${encodeURIComponent(eventId)}/replay`), {}),
  pauseDelivery: (id: string) => request<{ paused: true }>('POST', appPath(id, '/delivery/pause'), {}),
  resumeDelivery: (id: string) => request<{ resumed: true }>('POST', appPath(id, '/delivery/resume'), {}),
};
