import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { forEachDialect } from '../helpers/server.js';
import { callMethod } from './harness.js';

describe('mail settings', () => {
  it('takes an smtp:// or smtps:// URL with a public URL for the links, and refuses anything else naming the variable', () => {
    const config = loadConfig({}, { AVIARY_SMTP_URL: 'smtps://u:p@mail.example.com:465', AVIARY_PUBLIC_URL: 'https://chat.example.com' });
    expect(config).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', mailFrom: 'Aviary <aviary@chat.example.com>' });
    expect(() => loadConfig({}, { AVIARY_SMTP_URL: 'http://mail.example.com', AVIARY_PUBLIC_URL: 'https://chat.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { AVIARY_SMTP_URL: 'smtp://u:secret@mail.example.com' })).toThrow(/AVIARY_SMTP_URL: .*AVIARY_PUBLIC_URL/);
    try {
      loadConfig({}, { AVIARY_SMTP_URL: 'not a url with secret' });
    } catch (error) {
      // Never echoes the value: it may hold a password.
      expect(String(error)).not.toContain('secret');
    }
    expect(loadConfig({}, {}).smtpUrl).toBeUndefined();
  });
});

forEachDialect(
  'sign-ups are limited per address',
  (t) => {
    it('answers TooManyRequests once the address has used its sign-ups, whatever the invitation', async () => {
      const attempt = () => callMethod(t().url, 'invitations.accept', { inviteToken: 'inv_none', email: 'a@example.test', firstName: 'A', lastName: 'B', password: 'a long passphrase here' });
      expect((await attempt()).body.error).toBe('InvitationUnusable');
      expect((await attempt()).body.error).toBe('InvitationUnusable');
      const limited = await attempt();
      expect(limited).toMatchObject({ status: 429, body: { error: 'TooManyRequests' } });
      expect(limited.body.description).toMatch(/sign-ups from this address/);
    });
  },
  { rateLimits: { signInFailuresPerAddress: { rate: 1 / 3600, burst: 2 } } },
);
