import { integrationButtonKeys, type Integrations, type SlashCommand } from '@aviary/protocol';
import { validateIntegrations } from '@aviary/serviceml';
import type { AppsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { usableInstalledApp } from './policies/apps.js';

/**
 * An app's integrations (the `Integrations` of the protocol; docs/reference/integrations.md): how people reach it from the client.
 * Stored as JSON in `apps.integrations`, always in the normalised form `validateIntegrations` returns
 * (action aliases resolved, URLs trimmed), so readers never validate again. The validation is
 * @aviary/serviceml's, which createApp and updateApp run for the API, the CLI and the seed alike
 * (core/appFields.ts).
 */
export type { Integrations } from '@aviary/protocol';
export { validateIntegrations };

/** The buttons an app adds to the client, by their key in `Integrations`. */
export const buttonKinds = integrationButtonKeys;

export const emptyIntegrations = (): Integrations => ({ slashCommands: [], previewDomains: [] });

/** The stored integrations of an app row. */
export function readIntegrations(app: Pick<AppsTable, 'integrations'>): Integrations {
  return { ...emptyIntegrations(), ...(JSON.parse(app.integrations) as Partial<Integrations>) };
}

/** Whether a URL's host is covered by a preview domain pattern. */
export function previewDomainMatches(pattern: string, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/**
 * The app and command a person's `/name` reaches: among the apps they installed and have not disabled,
 * in their team, not disabled by a team admin. When two apps define the same name, the one installed
 * first wins, so a new install never takes a command over.
 */
export async function findSlashCommand(
  db: Db,
  teamId: string,
  userId: string,
  name: string,
): Promise<{ app: AppsTable; command: SlashCommand } | undefined> {
  const apps = await db
    .selectFrom('apps as a')
    .innerJoin('installs as i', 'i.app_id', 'a.id')
    .selectAll('a')
    .where('a.team_id', '=', teamId)
    .where('i.user_id', '=', userId)
    .where(usableInstalledApp)
    .orderBy('i.created_at')
    .orderBy('a.id')
    .execute();
  for (const app of apps) {
    const command = readIntegrations(app).slashCommands.find((candidate) => candidate.name === name);
    if (command) return { app, command };
  }
  return undefined;
}

/**
 * The apps that may preview a link the sender posted: those the sender installed and has not disabled,
 * not disabled by a team admin, whose preview domains cover `hostname`; oldest app first. Nobody else's
 * app is told about the link, which may have been posted in a private channel or a direct chat.
 */
export async function appsForPreviewDomain(db: Db, senderId: string, hostname: string): Promise<AppsTable[]> {
  const apps = await db
    .selectFrom('apps as a')
    .innerJoin('installs as i', 'i.app_id', 'a.id')
    .selectAll('a')
    .where('i.user_id', '=', senderId)
    .where(usableInstalledApp)
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
  return apps.filter((app) => readIntegrations(app).previewDomains.some((pattern) => previewDomainMatches(pattern, hostname)));
}
