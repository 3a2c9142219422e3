import type { AppsTable } from '../../store/schema.js';

/**
 * Whether an app can be installed now, and if not why, in the words the directory, the API and the
 * CLI all show: `app.install` must reach the app, through its listener URL or an open `aviary listen`
 * connection (`listening`: one the caller's delivery can use). A team's switch is a separate refusal
 * (AppDisabled), shown as such.
 */
export function whyNotInstallable(app: Pick<AppsTable, 'listener_url'>, listening: boolean): string | undefined {
  if (app.listener_url !== null || listening) return undefined;
  return 'it has no event listener URL and no open `aviary listen` connection; its developer must set one or run `aviary listen`';
}
