// `aviary app deploy --manifest aviary.app.json` and `aviary app export`: an app as a file, deployed
// idempotently. The manifest's schema is the protocol's AppManifest (docs/app-manifest.schema.json);
// its fields are checked by core's one app-fields check, as every other way of changing an app is.
import { writeFileSync } from 'node:fs';
import { cliActor } from '../core/audit/record.js';
import { AppManifest, appManifestFields } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import type { Command } from 'commander';
import { checkAppFields, type AppFields } from '../core/appFields.js';
import { createApp, updateApp } from '../core/commands/apps.js';
import { presentDeveloperApp, type DeveloperAppModel } from '../core/presenters/apps.js';
import type { AppsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { describeInvalid } from '../api/params.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { asCliError } from './coreRefusals.js';
import { CliError } from './errors.js';
import { readJsonFile } from './jsonFile.js';
import { requireApp, requirePerson } from './lookups.js';

type Flags<T> = StoreFlags & OutputFlags & T;
type ManifestField = (typeof appManifestFields)[number];

export function registerManifestCommands(app: Command): void {
  adminCommand(app, 'deploy', 'Create or update an app from a manifest, idempotently; fields the manifest leaves out are cleared. Prints what changed.')
    .requiredOption('--manifest <file>', 'the manifest, such as aviary.app.json (docs/app-manifest.schema.json)')
    .option('--developer <userId>', 'who develops the app: needed to create it, and to find it by name when the manifest has no id')
    .action((flags: Flags<{ manifest: string; developer?: string }>) =>
      runAdminCommand(flags, async (admin) => {
        const { db } = admin;
        const manifest = readManifest(flags.manifest);
        const wanted = await asManifestError(flags.manifest, () => checkAppFields(fieldsOf(manifest), 'create'));
        const existing = await findDeployed(db, manifest, flags.developer, wanted.name!);
        if (!existing) {
          if (flags.developer === undefined) throw new CliError('InvalidUsage', `${flags.manifest} has no app id: give --developer <userId> to create "${wanted.name}".`);
          const developer = await requirePerson(db, flags.developer);
          const created = await asCliError(() => createApp(admin, cliActor, { ...fieldsOf(manifest), name: wanted.name, developer }));
          const shown = presentDeveloperApp(created, { withSecret: true });
          return {
            json: { action: 'created', app: shown, changed: [...appManifestFields] },
            text: `Created app "${shown.name}" ${shown.id} in team ${shown.teamId}.\nsecret: ${shown.secret}\nAdd "id": "${shown.id}" to ${flags.manifest} to keep deploying to this app.`,
          };
        }
        const changed = changedFields(presentDeveloperApp(existing, { withSecret: false }), wanted);
        const updated = changed.length === 0 ? existing : await updateApp(admin, cliActor, { ...pick(wanted, changed), appId: existing.id });
        const shown = presentDeveloperApp(updated, { withSecret: false });
        return {
          json: { action: changed.length === 0 ? 'unchanged' : 'updated', app: shown, changed },
          text: changed.length === 0 ? `"${shown.name}" ${shown.id} is already as ${flags.manifest} says.` : `Updated "${shown.name}" ${shown.id}: ${changed.join(', ')}.`,
        };
      }),
    );

  adminCommand(app, 'export', 'Write an app as a manifest that `aviary app deploy` takes (no secret is in it).')
    .requiredOption('--app <id>', 'the app')
    .option('--out <file>', 'write it to this file instead of printing it')
    .action((flags: Flags<{ app: string; out?: string }>) =>
      runAdminCommand(flags, async ({ db }) => {
        const manifest = manifestOf(presentDeveloperApp(await requireApp(db, flags.app), { withSecret: false }));
        const text = `${JSON.stringify(manifest, null, 2)}\n`;
        if (flags.out === undefined) return { json: manifest, text: text.trimEnd() };
        try {
          writeFileSync(flags.out, text);
        } catch (error) {
          throw new CliError('InvalidOption', `--out ${flags.out} cannot be written: ${(error as Error).message}`);
        }
        return { json: { app: manifest.id, out: flags.out }, text: `Wrote the manifest of "${manifest.name}" ${manifest.id} to ${flags.out}.` };
      }),
    );
}

function readManifest(path: string): AppManifest {
  const value = readJsonFile('--manifest', path);
  const problem = Value.Errors(AppManifest, value).First();
  if (problem) throw new CliError('ManifestInvalid', `${path}: ${describeInvalid('manifest', problem, value)}`);
  return value as AppManifest;
}

/** Declarative: a field left out of the manifest is cleared, so the app is exactly what the file says. */
function fieldsOf(manifest: AppManifest): Record<ManifestField, unknown> {
  return {
    name: manifest.name,
    description: manifest.description ?? '',
    icon: manifest.icon ?? null,
    listenerUrl: manifest.listenerUrl ?? null,
    configurationUrl: manifest.configurationUrl ?? null,
    integrations: manifest.integrations ?? { slashCommands: [], previewDomains: [] },
    allowedOrigins: manifest.allowedOrigins ?? [],
    flockNaming: manifest.flockNaming ?? false,
    eventSubscriptions: manifest.eventSubscriptions ?? null,
  };
}

/** Core's refusal of a manifest field, as a manifest error naming the file. */
async function asManifestError<T>(path: string, run: () => T): Promise<T> {
  try {
    return await asCliError(run);
  } catch (error) {
    if (error instanceof CliError && error.code === 'InvalidOption') throw new CliError('ManifestInvalid', `${path}: ${error.message}`);
    throw error;
  }
}

/** The app the manifest is for: by its id, or else by the developer and the name. */
async function findDeployed(db: Db, manifest: AppManifest, developerId: string | undefined, name: string): Promise<AppsTable | undefined> {
  if (manifest.id !== undefined) {
    const found = await db.selectFrom('apps').selectAll().where('id', '=', manifest.id).executeTakeFirst();
    if (!found) throw new CliError('ManifestInvalid', `The manifest's id ${manifest.id} names no app; remove it to create the app anew.`);
    if (developerId !== undefined && found.developer_id !== developerId) {
      throw new CliError('ManifestInvalid', `The app ${found.id} is developed by ${found.developer_id}, not by ${developerId}.`);
    }
    return found;
  }
  if (developerId === undefined) return undefined;
  const named = await db.selectFrom('apps').selectAll().where('developer_id', '=', developerId).where('name', '=', name).orderBy('created_at').limit(2).execute();
  if (named.length > 1) throw new CliError('ManifestInvalid', `${developerId} has several apps named "${name}": add the "id" of the one to deploy to the manifest.`);
  return named[0];
}

function changedFields(current: DeveloperAppModel, wanted: AppFields): ManifestField[] {
  return appManifestFields.filter((field) => JSON.stringify(current[field]) !== JSON.stringify(wanted[field]));
}

function pick(fields: AppFields, names: readonly ManifestField[]): AppFields {
  return Object.fromEntries(names.map((name) => [name, fields[name]]));
}

/** The manifest of an app: what deploy would leave as it is. Empty fields are left out. */
function manifestOf(app: DeveloperAppModel): AppManifest & { id: string } {
  return {
    id: app.id,
    name: app.name,
    ...(app.description !== '' ? { description: app.description } : {}),
    ...(app.icon !== null ? { icon: app.icon } : {}),
    ...(app.listenerUrl !== null ? { listenerUrl: app.listenerUrl } : {}),
    ...(app.configurationUrl !== null ? { configurationUrl: app.configurationUrl } : {}),
    integrations: app.integrations,
    ...(app.allowedOrigins.length > 0 ? { allowedOrigins: app.allowedOrigins } : {}),
    ...(app.flockNaming ? { flockNaming: true } : {}),
    ...(app.eventSubscriptions !== null ? { eventSubscriptions: app.eventSubscriptions } : {}),
  };
}
