import { useCallback, useEffect, useId, useState } from 'react';
import { failureText, methods } from '../api/client';
import { formatTime, dayLabel } from './format';
import { useWorkspace } from './workspaceContext';

type Invitation = Awaited<ReturnType<typeof methods.invitations.list>>['invitations'][number];

const stateText: Record<Invitation['state'], string> = {
  active: 'active',
  paused: 'paused: its maker may no longer invite',
  expired: 'expired',
  usedUp: 'used up',
  revoked: 'revoked',
};
/** Still to come into use, or to be revoked: active, or paused until its maker may invite again. */
const waiting = (invitation: Invitation) => invitation.state === 'active' || invitation.state === 'paused';

/** The invitations the person may see (an admin: the team's; a member: their own), each active one revocable. */
export function InvitationsSection({ version }: { version: number }) {
  const workspace = useWorkspace();
  const [invitations, setInvitations] = useState<Invitation[]>();
  const [problem, setProblem] = useState<string>();
  const id = useId();

  const load = useCallback(async () => {
    try {
      setInvitations((await methods.invitations.list({})).invitations);
      setProblem(undefined);
    } catch (failure) {
      setProblem(failureText(failure));
    }
  }, []);
  useEffect(() => void load(), [load, version]);

  const revoke = async (invitation: Invitation) => {
    try {
      await methods.invitations.revoke({ invitationId: invitation.id });
      workspace.toast('The invitation is revoked.');
    } catch (failure) {
      setProblem(failureText(failure));
    }
    await load();
  };

  const { timeZone: timezone } = workspace.me;
  const when = (at: number) => `${dayLabel(at, timezone, Date.now())} at ${formatTime(at, timezone)}`;
  const what = (invitation: Invitation) =>
    `${invitation.email ?? 'Link'} · ${invitation.role === 'guest' ? 'guest' : 'member'} · ${invitation.uses} of ${invitation.maxUses} used · ${stateText[invitation.state]}`;
  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Invitations</h3>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {invitations === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : invitations.length === 0 ? (
        <p className="field-hint">No invitations yet.</p>
      ) : (
        <ul className="session-list">
          {invitations.map((invitation) => (
            <li key={invitation.id} className="session-row">
              <span className="session-text">
                <span className="session-device">{what(invitation)}</span>
                <span className="field-hint">
                  {waiting(invitation) ? `expires ${when(invitation.expiresAt)}` : `made ${when(invitation.createdAt)}`}
                  {invitation.createdBy !== workspace.me.id && ` · by ${workspace.nameOf(invitation.createdBy) ?? 'someone no longer in the team'}`}
                  {invitation.channelIds.length > 0 && ` · into ${invitation.channelIds.length === 1 ? '1 channel' : `${invitation.channelIds.length} channels`}`}
                </span>
              </span>
              {waiting(invitation) && (
                <button type="button" className="secondary" aria-label={`Revoke: ${what(invitation)}`} onClick={() => void revoke(invitation)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** An admin's team setting: who may invite people. */
export function WhoMayInviteSection() {
  const workspace = useWorkspace();
  const [who, setWho] = useState<'admins' | 'members'>();
  const id = useId();
  useEffect(() => {
    methods.team.getInfo({}).then(({ team }) => setWho(team.whoMayInvite), () => undefined);
  }, []);
  const change = async (next: 'admins' | 'members') => {
    try {
      const { team } = await methods.team.updateSettings({ whoMayInvite: next });
      setWho(team.whoMayInvite);
      workspace.toast(next === 'members' ? 'Members may invite people now.' : 'Only admins may invite people now.');
    } catch (failure) {
      workspace.toast(failureText(failure), 'error');
    }
  };
  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Team setting</h3>
      <label>
        Who may invite people
        <select value={who ?? 'admins'} disabled={who === undefined} onChange={(event) => void change(event.target.value as 'admins' | 'members')}>
          <option value="admins">Admins only</option>
          <option value="members">Members and admins</option>
        </select>
      </label>
    </section>
  );
}
