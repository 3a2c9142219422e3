import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { Clearable, closedObject, oneOf } from '../params.js';

/** Where a team's single sign-on provider comes from: its own settings, the server's environment (AVIARY_OIDC_*), or none. */
export const providerSources = ['team', 'environment', 'none'] as const;

const maxDomains = 50;

export const SignInSettings = closedObject({
  passwordEnabled: Type.Boolean({ description: 'whether people sign in with a password; false: only through the provider' }),
  source: oneOf(providerSources),
  provider: Type.Union(
    [
      closedObject({
        issuer: Type.String(),
        clientId: Type.String(),
        allowedDomains: Type.Array(Type.String(), { description: 'email domains whose people may sign in; empty: any' }),
        createAccounts: Type.Boolean({ description: 'whether a first sign-in without an account creates one, as a member' }),
      }),
      Type.Null(),
    ],
    { description: 'the provider in use (never its client secret); null without one' },
  ),
  callbackUrl: Type.String({ description: 'the redirect URI to register at the provider' }),
});

export const getSignInSettings = defineMethod({
  name: 'team.getSignInSettings',
  summary: 'A team admin reads how the team signs in: password on or off, and its single sign-on provider (never the client secret).',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'read',
  result: closedObject({ settings: SignInSettings }),
  errors: ['PermissionDenied'],
});

export const updateSignInSettings = defineMethod({
  name: 'team.updateSignInSettings',
  summary:
    'A team admin sets the team’s OpenID Connect provider (provider; null removes the team’s own) and switches password sign-in on or off; ' +
    'passwords can be switched off only while a provider is set. Settings left out stay.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({
    passwordEnabled: Type.Optional(Type.Boolean({ description: 'false: people sign in through the provider only (the CLI can switch it back on)' })),
    provider: Type.Optional(
      Clearable(
        closedObject({
          issuer: Type.String({ minLength: 1, maxLength: 500, description: 'the provider’s issuer URL: https://, or http:// on 127.0.0.1 or localhost' }),
          clientId: Type.String({ minLength: 1, maxLength: 500 }),
          clientSecret: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'sealed at rest; leave out to keep the stored one for the same client id' })),
          allowedDomains: Type.Array(Type.String({ maxLength: 253 }), { maxItems: maxDomains, description: 'email domains such as example.com; empty: any' }),
          createAccounts: Type.Boolean(),
        }),
        'the team’s own provider; null (or "") removes it',
      ),
    ),
  }),
  result: closedObject({ settings: SignInSettings }),
  errors: ['PermissionDenied'],
});
