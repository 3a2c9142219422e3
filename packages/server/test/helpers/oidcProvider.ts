import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** What the provider says of an account: its subject is the login typed at its sign-in form. */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers Aviary's callback and the accounts; before it, the provider answers 503. */
  configure(options: { redirectUri: string; accounts: Record<string, ProviderAccount> }): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1, port 0. Its development sign-in form
 * takes any login (the account's subject) and password, and every client is granted openid, email and
 * profile without a consent screen. Listens first, so that its issuer can go into Aviary's
 * configuration before Aviary's own URL, its callback, is known.
 */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (handle) return handle(request, response);
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'aviary';
  const clientSecret = 'a-client-secret-of-at-least-32-characters';
  return {
    issuer,
    clientId,
    clientSecret,
    configure({ redirectUri, accounts }) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
        pkce: { required: () => true },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
          const account = accounts[sub] ?? {};
          return { accountId: sub, claims: () => ({ sub, ...account }) };
        },
        async loadExistingGrant(ctx: KoaContextWithOIDC) {
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
          grant.addOIDCScope('openid email profile');
          grant.addOIDCClaims(['email', 'email_verified', 'given_name', 'family_name']);
          await grant.save();
          return grant;
        },
      });
      handle = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
