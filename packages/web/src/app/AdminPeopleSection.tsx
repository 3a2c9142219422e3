import { useId, useState } from 'react';
import type { AdminPerson } from '@aviary/protocol';
import { methods } from '../api/client';
import { ConfirmDialog, type Confirmation } from './ConfirmDialog';
import { dayLabel, formatTime, fullName } from './format';
import { AdminProblem, useAdminList } from './useAdminList';
import { useWorkspace } from './workspaceContext';

const roleNames = { admin: 'Admin', user: 'Member', guest: 'Guest' } as const;
type Role = keyof typeof roleNames;
const listPeople = async () => (await methods.admin.listPeople({})).people;

/** The team's people: each one's role (changeable), last activity, deactivation and a password-reset link to hand over. */
export function AdminPeopleSection() {
  const workspace = useWorkspace();
  const { items: people, problem, act } = useAdminList(listPeople);
  const [resetLink, setResetLink] = useState<{ name: string; link: string }>();
  const [confirming, setConfirming] = useState<Confirmation>();
  const id = useId();

  const { timeZone: timezone } = workspace.me;
  const when = (at: number | null) => (at === null ? 'never' : `${dayLabel(at, timezone, Date.now())} at ${formatTime(at, timezone)}`);
  const reset = async (person: AdminPerson) => {
    const answer = await methods.admin.resetPassword({ userId: person.user.id });
    if (answer.link) setResetLink({ name: fullName(person.user), link: new URL(answer.link, location.origin).href });
  };

  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>People</h3>
      <AdminProblem problem={problem} />
      {resetLink && (
        <div className="admin-reset" role="status">
          <label>
            Password reset link for {resetLink.name} (single use, valid one hour)
            <input readOnly value={resetLink.link} onFocus={(event) => event.target.select()} />
          </label>
        </div>
      )}
      {people === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : (
        <ul className="session-list" aria-label="People">
          {people.map((person) => {
            const name = fullName(person.user);
            const gone = person.deactivatedAt !== null;
            return (
              <li key={person.user.id} className="session-row admin-row">
                <span className="session-text">
                  <span className="session-device">
                    {name}
                    {gone && <span className="admin-badge"> · deactivated</span>}
                  </span>
                  <span className="field-hint">
                    {person.user.email} · last active {when(person.lastActiveAt)}
                  </span>
                </span>
                <span className="admin-actions">
                  <select
                    aria-label={`Role of ${name}`}
                    value={person.user.role}
                    disabled={gone}
                    onChange={(event) => {
                      const role = event.target.value as Role;
                      void act(() => methods.admin.setRole({ userId: person.user.id, role }), `${name} is now ${roleNames[role].toLowerCase()}.`);
                    }}
                  >
                    {(Object.keys(roleNames) as Role[]).map((role) => (
                      <option key={role} value={role}>
                        {roleNames[role]}
                      </option>
                    ))}
                  </select>
                  {!gone && (
                    <button type="button" className="secondary" aria-label={`Reset password of ${name}`} onClick={() => void act(() => reset(person), `A reset link for ${name} is ready.`)}>
                      Reset password
                    </button>
                  )}
                  {person.user.id !== workspace.me.id && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`${gone ? 'Reactivate' : 'Deactivate'} ${name}`}
                      onClick={() =>
                        gone
                          ? void act(() => methods.admin.reactivatePerson({ userId: person.user.id }), `${name} is reactivated.`)
                          : setConfirming({
                              title: `Deactivate ${name}?`,
                              text: `${name} is signed out everywhere at once and can no longer sign in; their messages stay. You can reactivate them later.`,
                              action: 'Deactivate',
                              run: () => void act(() => methods.admin.deactivatePerson({ userId: person.user.id }), `${name} is deactivated.`),
                            })
                      }
                    >
                      {gone ? 'Reactivate' : 'Deactivate'}
                    </button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {confirming && <ConfirmDialog confirmation={confirming} onClose={() => setConfirming(undefined)} />}
    </section>
  );
}
