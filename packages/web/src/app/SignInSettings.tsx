import { useEffect, useState, type FormEvent } from 'react';
import { failureText, methods } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { useWorkspace } from './workspaceContext';
import './signIn.css';

type Settings = Awaited<ReturnType<typeof methods.team.getSignInSettings>>['settings'];
const fields = ['provider.issuer', 'provider.clientId', 'provider.clientSecret', 'provider.allowedDomains', 'passwordEnabled'] as const;

/**
 * "Sign-in methods", for team admins: the team's OpenID Connect provider (issuer, client id, secret,
 * allowed email domains, whether a first sign-in creates the account) and whether people may still sign
 * in with a password. Standalone, so that the admin console can include it as it is.
 */
export function SignInSettings() {
  const workspace = useWorkspace();
  const [settings, setSettings] = useState<Settings>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState('');
  const [createAccounts, setCreateAccounts] = useState(false);
  const [passwordEnabled, setPasswordEnabled] = useState(true);
  const [busy, setBusy] = useState(false);
  const { id, clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);

  const show = (next: Settings) => {
    setSettings(next);
    setPasswordEnabled(next.passwordEnabled);
    setClientSecret('');
    if (next.source !== 'team' || !next.provider) return;
    setIssuer(next.provider.issuer);
    setClientId(next.provider.clientId);
    setDomains(next.provider.allowedDomains.join(', '));
    setCreateAccounts(next.provider.createAccounts);
  };

  useEffect(() => {
    methods.team.getSignInSettings({}).then(
      ({ settings: loaded }) => show(loaded),
      (failure: unknown) => setLoadProblem(failureText(failure)),
    );
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      // An emptied issuer removes the team's own provider; one never set stays unset.
      const removed = settings?.source === 'team' ? null : undefined;
      const provider = issuer.trim() === '' ? removed : { issuer, clientId, ...(clientSecret ? { clientSecret } : {}), allowedDomains: domains.split(/[\s,]+/).filter(Boolean), createAccounts };
      const answer = await methods.team.updateSignInSettings({ passwordEnabled, ...(provider !== undefined ? { provider } : {}) });
      show(answer.settings);
      workspace.toast('Sign-in methods saved.');
    } catch (failure) {
      refuse(failure);
    } finally {
      setBusy(false);
    }
  };

  if (loadProblem) return <p className="form-error">{loadProblem}</p>;
  if (!settings) return null;
  return (
    <form className="modal-form account-section sign-in-settings" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Sign-in methods</h3>
      {settings.source === 'environment' && settings.provider && (
        <p className="hint">The server’s configuration signs this team in through {settings.provider.issuer}. A provider set here replaces it for this team.</p>
      )}
      <fieldset>
        <legend>Single sign-on (OpenID Connect)</legend>
        <label>
          Issuer URL
          <input type="url" value={issuer} onChange={(event) => setIssuer(event.target.value)} placeholder="https://login.example.com/realms/acme" {...invalid('provider.issuer')} />
          {refusal('provider.issuer')}
        </label>
        <label>
          Client id
          <input type="text" value={clientId} onChange={(event) => setClientId(event.target.value)} {...invalid('provider.clientId')} />
          {refusal('provider.clientId')}
        </label>
        <label>
          Client secret
          <input
            type="password"
            autoComplete="off"
            value={clientSecret}
            onChange={(event) => setClientSecret(event.target.value)}
            placeholder={settings.source === 'team' ? 'Kept; type a new one to replace it' : ''}
            {...invalid('provider.clientSecret')}
          />
          {refusal('provider.clientSecret')}
        </label>
        <label>
          Allowed email domains
          <input type="text" value={domains} onChange={(event) => setDomains(event.target.value)} placeholder="example.com, example.org (empty: any)" {...invalid('provider.allowedDomains')} />
          {refusal('provider.allowedDomains')}
        </label>
        <label className="check">
          <input type="checkbox" checked={createAccounts} onChange={(event) => setCreateAccounts(event.target.checked)} />
          Create an account on a person’s first sign-in
        </label>
        <p className="hint">Register this redirect URI at the provider: {settings.callbackUrl}</p>
        {settings.source !== 'none' && (
          <p className="hint">
            The team’s own sign-in link, for people whose email has accounts in several teams here: {window.location.origin}/api/sso/start?team=
            {encodeURIComponent(workspace.team.id)}
          </p>
        )}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={passwordEnabled} onChange={(event) => setPasswordEnabled(event.target.checked)} {...invalid('passwordEnabled')} />
        People may sign in with a password
      </label>
      {refusal('passwordEnabled')}
      {formRefusal}
      <div className="modal-actions">
        <button type="submit" className="secondary" disabled={busy}>
          Save sign-in methods
        </button>
      </div>
    </form>
  );
}
