import { personalTokenLifetimes } from '@aviary/protocol';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { failureText, methods } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { dayLabel } from './format';
import { useWorkspace } from './workspaceContext';

type PersonalToken = Awaited<ReturnType<typeof methods.personalTokens.list>>['personalTokens'][number];

const fields = ['name', 'expiresInDays'] as const;
const NEVER = 'never';

/**
 * "Personal tokens": tokens for the person's scripts, each acting as them (personalTokens.create). A new
 * token is shown once, to copy; the list names each with its expiry and last use, and revokes it.
 */
export function PersonalTokensSection() {
  const workspace = useWorkspace();
  const [tokens, setTokens] = useState<PersonalToken[]>();
  const [problem, setProblem] = useState<string>();
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState<string>(String(personalTokenLifetimes[1]));
  const [made, setMade] = useState<{ name: string; token: string }>();
  const [busy, setBusy] = useState(false);
  const { id, clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);

  const load = useCallback(async () => {
    try {
      setTokens((await methods.personalTokens.list({})).personalTokens);
      setProblem(undefined);
    } catch (failure) {
      setProblem(failureText(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      const expiresInDays = lifetime === NEVER ? undefined : (Number(lifetime) as (typeof personalTokenLifetimes)[number]);
      const { token, personalToken } = await methods.personalTokens.create({ name, ...(expiresInDays !== undefined ? { expiresInDays } : {}) });
      setMade({ name: personalToken.name, token });
      setName('');
      await load();
    } catch (failure) {
      refuse(failure);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (token: PersonalToken) => {
    try {
      await methods.personalTokens.revoke({ tokenId: token.id });
      workspace.toast(`The token “${token.name}” is revoked.`);
    } catch (failure) {
      setProblem(failureText(failure));
    }
    await load();
  };

  const { timeZone: timezone } = workspace.me;
  const day = (at: number) => {
    const label = dayLabel(at, timezone, Date.now());
    return label === 'Today' || label === 'Yesterday' ? label.toLowerCase() : label;
  };
  const standing = (token: PersonalToken) =>
    [
      `created ${day(token.createdAt)}`,
      token.expiresAt === null ? 'never expires' : token.expired ? `expired ${day(token.expiresAt)}` : `expires ${day(token.expiresAt)}`,
      token.lastUsedAt === null ? 'never used' : `last used ${day(token.lastUsedAt)}`,
    ].join(' · ');

  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Personal tokens</h3>
      <p className="field-hint">
        A token lets your scripts call the API as you (Authorization: Bearer). It cannot manage tokens, sessions or your password.
      </p>
      <form className="token-form" onSubmit={create} noValidate>
        <label>
          Token name
          <input value={name} onChange={(event) => setName(event.target.value)} placeholder="backup script" {...invalid('name')} />
          {refusal('name')}
        </label>
        <label>
          Expires
          <select value={lifetime} onChange={(event) => setLifetime(event.target.value)} {...invalid('expiresInDays')}>
            {personalTokenLifetimes.map((days) => (
              <option key={days} value={String(days)}>
                in {days} days
              </option>
            ))}
            <option value={NEVER}>never</option>
          </select>
          {refusal('expiresInDays')}
        </label>
        {formRefusal}
        <div className="modal-actions">
          <button type="submit" className="secondary" disabled={busy || name.trim() === ''}>
            Create token
          </button>
        </div>
      </form>
      {made && (
        <div className="token-made" role="status">
          <label htmlFor={`${id}-made`}>The token “{made.name}”: copy it now, it is not shown again</label>
          <div className="token-made-row">
            <input id={`${id}-made`} readOnly value={made.token} onFocus={(event) => event.target.select()} />
            <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(made.token).then(() => workspace.toast('The token is copied.'))}>
              Copy
            </button>
            <button type="button" className="secondary" onClick={() => setMade(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {tokens === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : tokens.length === 0 ? (
        <p className="field-hint">You have no personal tokens.</p>
      ) : (
        <ul className="session-list" aria-label="Your personal tokens">
          {tokens.map((token) => (
            <li key={token.id} className="session-row">
              <span className="session-text">
                <span className="session-device">{token.name}</span>
                <span className="field-hint">{standing(token)}</span>
              </span>
              <button type="button" className="secondary danger" aria-label={`Revoke the token ${token.name}`} onClick={() => void revoke(token)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
