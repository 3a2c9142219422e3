import type { AppDeliveryColumns, AppsTable, InstallsTable } from '../../store/schema.js';
import { storedSubscriptions } from '../../events/subscriptions.js';
import { readAllowedOrigins } from '../allowedOrigins.js';
import { whyNotInstallable } from '../policies/installability.js';
import { buttonKinds, readIntegrations, type Integrations } from '../integrations.js';
import { setFields } from './setFields.js';

type AppRow = AppsTable & Partial<{ [K in keyof AppDeliveryColumns]: number | null }>;

/** An app as its developer (or a team admin) sees it through the developer methods. Never a token hash. */
export interface DeveloperAppModel {
  id: string;
  teamId: string;
  developerId: string;
  name: string;
  description: string;
  icon: string | null;
  listenerUrl: string | null;
  configurationUrl: string | null;
  integrations: Integrations;
  /** Origins besides the listener, configuration and integration URLs that may receive its widget and browser tokens. */
  allowedOrigins: string[];
  /** Flock-compatible naming (docs/flock-compatibility.md). */
  flockNaming: boolean;
  /** The events the app receives; null: the defaults. */
  eventSubscriptions: string[] | null;
  botUserId: string | null;
  disabledByTeam: boolean;
  /** When asynchronous delivery was paused after days of failures; null while it runs. */
  deliveryPausedAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Only for the app's developer: the key its event tokens are signed with. */
  secret?: string;
}

export function presentDeveloperApp(row: AppRow, options: { withSecret: boolean }): DeveloperAppModel {
  return {
    id: row.id,
    teamId: row.team_id,
    developerId: row.developer_id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    listenerUrl: row.listener_url,
    configurationUrl: row.configuration_url,
    integrations: readIntegrations(row),
    allowedOrigins: readAllowedOrigins(row),
    flockNaming: row.flock_naming === 1,
    eventSubscriptions: storedSubscriptions(row),
    botUserId: row.bot_user_id,
    disabledByTeam: row.disabled_by_team === 1,
    deliveryPausedAt: row.delivery_paused_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(options.withSecret ? { secret: row.secret } : {}),
  };
}

/** What the client shows of an integration: labels, never where its actions lead. */
export interface PublicIntegrations {
  slashCommands: Array<{ name: string; description?: string }>;
  launcherButton?: { name: string; icon?: string };
  chatTabButton?: { name: string; icon?: string };
  attachmentPickerButton?: { name: string; icon?: string };
  messageAction?: { name: string };
  /** Present when the app has a home tab; where it leads is not shown. */
  appHome?: Record<string, never>;
}

/** An app of the person's team as the client lists it, with the person's install state. */
export interface ClientAppModel {
  id: string;
  name: string;
  description: string;
  icon?: string;
  botUserId?: string;
  /** False when `app.install` could not reach the app now: installing it would fail. */
  installable: boolean;
  /** Why it is not installable (core/policies/installability.ts). */
  notInstallableBecause?: string;
  installed: boolean;
  disabledByUser: boolean;
  disabledByTeam: boolean;
  integrations: PublicIntegrations;
}

export function presentClientApp(row: AppsTable, install: Pick<InstallsTable, 'disabled_by_user'> | undefined, listening: boolean): ClientAppModel {
  const notInstallableBecause = whyNotInstallable(row, listening);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ...setFields({ icon: row.icon, botUserId: row.bot_user_id }),
    installable: notInstallableBecause === undefined,
    ...(notInstallableBecause !== undefined ? { notInstallableBecause } : {}),
    installed: install !== undefined,
    disabledByUser: install?.disabled_by_user === 1,
    disabledByTeam: row.disabled_by_team === 1,
    integrations: publicIntegrations(readIntegrations(row)),
  };
}

function publicIntegrations(integrations: Integrations): PublicIntegrations {
  const shown: PublicIntegrations = {
    slashCommands: integrations.slashCommands.map(({ name, description }) => ({ name, ...(description !== undefined ? { description } : {}) })),
  };
  for (const kind of buttonKinds) {
    const button = integrations[kind];
    if (button) shown[kind] = { name: button.name, ...(button.icon !== undefined ? { icon: button.icon } : {}) };
  }
  if (integrations.messageAction) shown.messageAction = { name: integrations.messageAction.name };
  if (integrations.appHome) shown.appHome = {};
  return shown;
}
