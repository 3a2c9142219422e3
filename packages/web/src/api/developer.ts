/**
 * The developer API as the dashboard calls it (docs/reference/developer-api.md): apps, integrations,
 * bot and secret, and the delivery log, typed from the protocol's route definitions like ./client.ts.
 */
import { createRouteClient, developerRoutes, type DeliveredEvent, type DeliveryAttempt, type DeliveryStatus, type DeveloperApp, type RouteParamsOf, type TestEventResult } from '@aviary/protocol';

export { deliveryStatuses } from '@aviary/protocol';
export type { DeveloperApp, DeliveredEvent, DeliveryAttempt, DeliveryStatus, TestEventResult };

export const developerApi = createRouteClient(developerRoutes);

/** The fields of an app the dashboard's form edits. */
export type AppFields = Omit<RouteParamsOf<typeof developerRoutes.updateApp>, 'id'>;
