import type { SignInSettings } from '../signIn/settings.js';

/** A team's sign-in settings as team.getSignInSettings answers them: never the client secret. */
export function presentSignInSettings(settings: SignInSettings, callbackUrl: string) {
  const { provider } = settings;
  return {
    passwordEnabled: settings.passwordEnabled,
    source: settings.source ?? 'none',
    provider: provider ? { issuer: provider.issuer, clientId: provider.clientId, allowedDomains: provider.allowedDomains, createAccounts: provider.createAccounts } : null,
    callbackUrl,
  } as const;
}
