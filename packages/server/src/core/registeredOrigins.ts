import { readAllowedOrigins } from './allowedOrigins.js';
import { readIntegrations } from './integrations.js';
import type { AppsTable } from '../store/schema.js';

export type AppWithOrigins = Pick<AppsTable, 'listener_url' | 'configuration_url' | 'integrations' | 'allowed_origins'>;

/**
 * The origins an app's developer registered, the only ones its widget and browser URLs (and the tokens
 * in them) may go to: those of its listener URL, its configuration URL and every URL its integrations
 * open, plus its allowed origins. Icons are left out: an image's host is not where events go.
 */
export function registeredOrigins(app: AppWithOrigins): Set<string> {
  const integrations = readIntegrations(app);
  const actions = [
    ...integrations.slashCommands.map((command) => command.action),
    ...[integrations.launcherButton, integrations.chatTabButton, integrations.attachmentPickerButton, integrations.messageAction].map(
      (integration) => integration?.action,
    ),
  ];
  const urls = [app.listener_url, app.configuration_url, ...actions.map((action) => action?.url), integrations.appHome?.url, ...readAllowedOrigins(app)];
  const origins = new Set<string>();
  for (const url of urls) {
    const origin = originOf(url);
    if (origin !== undefined) origins.add(origin);
  }
  return origins;
}

/**
 * A URL's origin in the form WHATWG `URL` gives it (lower-case host, default port left out), or undefined
 * when it has none: an opaque origin ("null", as of `data:` URLs) is never registered, nor matched.
 */
export function originOf(url: string | null | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const { origin } = new URL(url);
  return origin === 'null' ? undefined : origin;
}
