import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import './invites.css';
import { methods, type Channel } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { InvitationsSection, WhoMayInviteSection } from './InvitationsSection';
import { Modal } from './Modal';
import { useWorkspace } from './workspaceContext';

const fields = ['email', 'role', 'channelIds', 'maxUses', 'expiresInHours'] as const;
const expiries = [
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
];

/**
 * "Invite people": by email (mailed when the server sends mail, else a link to hand over) or an invite
 * link with an expiry, a number of uses, a role and channels (a guest sees only those). Below, the
 * invitations the person may see, each revocable; an admin also sets who may invite.
 */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspace();
  const [by, setBy] = useState<'email' | 'link'>('email');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'user' | 'guest'>('user');
  const [channelIds, setChannelIds] = useState<string[]>([]);
  const [maxUses, setMaxUses] = useState(1);
  const [expiresInHours, setExpiresInHours] = useState(168);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [made, setMade] = useState<{ url: string | null; mailed: boolean; email: string | null }>();
  // A link made comes into view with the focus (its text selected, ready to copy), however far down the dialog it is.
  const linkInput = useRef<HTMLInputElement>(null);
  useEffect(() => linkInput.current?.focus(), [made]);
  const [version, setVersion] = useState(0);
  const { id, clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);
  const [busy, setBusy] = useState(false);
  const linkId = useId();

  useEffect(() => {
    methods.channels.list({}).then(setChannels, () => setChannels([]));
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    setMade(undefined);
    try {
      const answer = await methods.invitations.create({
        ...(by === 'email' ? { email } : { maxUses }),
        role,
        expiresInHours,
        ...(channelIds.length > 0 ? { channelIds } : {}),
      });
      // The link is on this server: a path when the server has no public URL set.
      const url = answer.url === null ? null : new URL(answer.url, location.origin).href;
      setMade({ url, mailed: answer.mailed, email: answer.invitation.email });
      if (answer.mailed) workspace.toast(`An invitation was mailed to ${answer.invitation.email}.`);
      setEmail('');
      setVersion((v) => v + 1);
    } catch (failure) {
      refuse(failure);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (channelId: string) => setChannelIds((ids) => (ids.includes(channelId) ? ids.filter((other) => other !== channelId) : [...ids, channelId]));

  return (
    <Modal title="Invite people" onClose={onClose} className="invite-dialog">
      <form className="modal-form" onSubmit={submit} noValidate aria-describedby={`${id}-about`}>
        <fieldset className="segmented">
          <legend>Invite</legend>
          <label className="choice">
            <input type="radio" name="by" checked={by === 'email'} onChange={() => setBy('email')} data-autofocus /> By email
          </label>
          <label className="choice">
            <input type="radio" name="by" checked={by === 'link'} onChange={() => setBy('link')} /> With a link
          </label>
        </fieldset>
        {by === 'email' ? (
          <label>
            Email
            <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" {...invalid('email')} />
            {refusal('email')}
          </label>
        ) : (
          <label>
            How many people may use it
            <input type="number" min={1} max={1000} value={maxUses} onChange={(event) => setMaxUses(Number(event.target.value))} {...invalid('maxUses')} />
            {refusal('maxUses')}
          </label>
        )}
        <label>
          Expires after
          <select value={expiresInHours} onChange={(event) => setExpiresInHours(Number(event.target.value))} {...invalid('expiresInHours')}>
            {expiries.map((expiry) => (
              <option key={expiry.hours} value={expiry.hours}>
                {expiry.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as 'user' | 'guest')} {...invalid('role')}>
            <option value="user">Member</option>
            <option value="guest">Guest (sees only the channels below)</option>
          </select>
        </label>
        <fieldset className="channel-choice" {...invalid('channelIds')}>
          <legend>{role === 'guest' ? 'Channels the guest gets (at least one)' : 'Channels they join (optional)'}</legend>
          {channels.length === 0 && <p className="field-hint">No channels to offer.</p>}
          {channels.map((channel) => (
            <label key={channel.id} className="choice">
              <input type="checkbox" checked={channelIds.includes(channel.id)} onChange={() => toggle(channel.id)} />
              {channel.type === 'private' ? `🔒 ${channel.name} (private)` : `# ${channel.name}`}
            </label>
          ))}
          {refusal('channelIds')}
        </fieldset>
        <p className="field-hint" id={`${id}-about`}>
          An email invitation is mailed when the server sends mail; otherwise it gives a link to hand over yourself.
        </p>
        {formRefusal}
        <div className="modal-actions">
          <button type="submit" className="primary" disabled={busy || (by === 'email' && email.trim() === '')}>
            {by === 'email' ? 'Send invitation' : 'Create link'}
          </button>
        </div>
        {made?.url && (
          <div className="invite-link">
            <label htmlFor={linkId}>{made.email ? `Invite link for ${made.email}` : 'Invite link'}</label>
            <div className="invite-link-row">
              <input ref={linkInput} id={linkId} readOnly value={made.url} onFocus={(event) => event.target.select()} />
              <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(made.url!).then(() => workspace.toast('The link is copied.'))}>
                Copy
              </button>
            </div>
          </div>
        )}
      </form>
      {workspace.me.role === 'admin' && <WhoMayInviteSection />}
      <InvitationsSection version={version} />
    </Modal>
  );
}
