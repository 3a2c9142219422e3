import { useMemo, useState, type FormEvent } from 'react';
import { methods } from '../api/client';
import { ChangePasswordSection, SessionsSection } from './AccountSections';
import { AuditLogSection } from './AuditLogSection';
import { ProfileStatusSection } from './ProfileStatusSection';
import { DeactivateAccountSection } from './DeactivateAccountSection';
import { PersonalTokensSection } from './PersonalTokensSection';
import { Avatar, PresenceText } from './Avatar';
import { useFieldRefusals } from './fieldRefusals';
import { fullName } from './format';
import { Modal } from './Modal';
import { zoneChoices, zoneForOffset } from './timeZones';
import { useWorkspace } from './workspaceContext';
import './people.css';

const fields = ['firstName', 'lastName', 'timezone'] as const;

/** The option that keeps a timezone no zone of the browser has now (an offset such as +05:45 elsewhere). */
const AS_IT_IS = '';

/**
 * The person's name and time zone. A zone is kept as its offset now (the profile holds a UTC offset), so
 * every time in the page moves at once; the team sees the new name live (the user.updated frame). A
 * refusal is shown under the field it names, as the server words it. Below, the person's account:
 * changing the password, their sessions (AccountSections.tsx) and their personal tokens.
 */
export function ProfileDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspace();
  const me = workspace.me;
  const choices = useMemo(() => zoneChoices(Date.now()), []);
  const matched = useMemo(() => zoneForOffset(choices, me.timezone), [choices, me.timezone]);
  const [firstName, setFirstName] = useState(me.firstName);
  const [lastName, setLastName] = useState(me.lastName);
  const [zone, setZone] = useState(matched ?? AS_IT_IS);
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);
  const [busy, setBusy] = useState(false);
  // Bumped when the password changes, so that the list of sessions shows the others gone.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  const timezone = choices.find((choice) => choice.zone === zone)?.offset ?? me.timezone;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      const { user } = await methods.users.updateProfile({ firstName, lastName, timezone });
      workspace.updateMe(user);
      workspace.toast('Your profile is saved.');
      onClose();
    } catch (failure) {
      refuse(failure);
      setBusy(false);
    }
  };

  return (
    <Modal title="Your profile" onClose={onClose}>
      <form className="modal-form" onSubmit={submit} noValidate>
        <div className="profile-summary">
          <Avatar name={fullName(me)} image={me.profileImage} presence={workspace.presenceOf(me.id)} />
          <span className="picker-label">
            {fullName(me)}
            <PresenceText presence={workspace.presenceOf(me.id)} />
          </span>
        </div>
        <label>
          First name
          <input value={firstName} onChange={(event) => setFirstName(event.target.value)} autoComplete="given-name" data-autofocus {...invalid('firstName')} />
          {refusal('firstName')}
        </label>
        <label>
          Last name
          <input value={lastName} onChange={(event) => setLastName(event.target.value)} autoComplete="family-name" {...invalid('lastName')} />
          {refusal('lastName')}
        </label>
        <label>
          Time zone
          <select value={zone} onChange={(event) => setZone(event.target.value)} {...invalid('timezone')}>
            {matched === undefined && <option value={AS_IT_IS}>UTC{me.timezone} (as it is)</option>}
            {choices.map((choice) => (
              <option key={choice.zone} value={choice.zone}>
                {choice.zone.replaceAll('_', ' ')} (UTC{choice.offset})
              </option>
            ))}
          </select>
          <span className="field-hint">Times are shown at UTC{timezone}.</span>
          {refusal('timezone')}
        </label>
        {formRefusal}
        <div className="modal-actions">
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
      <ProfileStatusSection />
      <ChangePasswordSection onChanged={() => setSessionsVersion((version) => version + 1)} />
      <SessionsSection version={sessionsVersion} />
      <PersonalTokensSection />
      <DeactivateAccountSection />
      {me.role === 'admin' && <AuditLogSection />}
    </Modal>
  );
}
