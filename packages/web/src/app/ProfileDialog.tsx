import { useState, type FormEvent } from 'react';
import { methods } from '../api/client';
import { ChangePasswordSection, SessionsSection } from './AccountSections';
import { AuditLogSection } from './AuditLogSection';
import { PictureField } from './PictureField';
import { ProfileStatusSection } from './ProfileStatusSection';
import { DeactivateAccountSection } from './DeactivateAccountSection';
import { PersonalTokensSection } from './PersonalTokensSection';
import { Avatar, PresenceText } from './Avatar';
import { useFieldRefusals } from './fieldRefusals';
import { fullName } from './format';
import { Modal } from './Modal';
import { TimeZoneField } from './TimeZoneField';
import { usePresence, useWorkspace } from './workspaceContext';
import './people.css';

const fields = ['firstName', 'lastName', 'timezone'] as const;

/**
 * The person's name and time zone, an IANA zone (the profile's `timeZone`): every time in the page moves
 * at once, and each is read at its own offset, daylight saving included; and their picture (PictureField:
 * uploaded, then made on the server). The team sees the new name live (the user.updated frame). A
 * refusal is shown under the field it names, as the server words it. Below, the person's account:
 * changing the password, their sessions (AccountSections.tsx) and their personal tokens.
 */
export function ProfileDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspace();
  const presence = usePresence()(workspace.me.id);
  const me = workspace.me;
  const [firstName, setFirstName] = useState(me.firstName);
  const [lastName, setLastName] = useState(me.lastName);
  const [zone, setZone] = useState(me.timeZone);
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);
  const [busy, setBusy] = useState(false);
  // Bumped when the password changes, so that the list of sessions shows the others gone.
  const [sessionsVersion, setSessionsVersion] = useState(0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      const { user } = await methods.users.updateProfile({ firstName, lastName, timezone: zone });
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
          <Avatar name={fullName(me)} image={me.profileImage} presence={presence} />
          <span className="picker-label">
            {fullName(me)}
            <PresenceText presence={presence} />
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
        <TimeZoneField
          zone={zone}
          onChange={setZone}
          hint={(label, offset) => `Times are shown in ${label}, now UTC${offset}.`}
          invalid={invalid('timezone')}
          refusal={refusal('timezone')}
        />
        {formRefusal}
        <div className="modal-actions">
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
      <section className="modal-form account-section" aria-label="Your picture">
        <PictureField
          label="Picture"
          name={fullName(me)}
          image={me.profileImage}
          onSet={async (file) => {
            workspace.updateMe((await methods.users.setProfileImage({ file })).user);
            workspace.toast('Your picture is saved.');
          }}
          onRemove={async () => {
            workspace.updateMe((await methods.users.removeProfileImage({})).user);
            workspace.toast('Your picture is removed.');
          }}
        />
      </section>
      <ProfileStatusSection />
      <ChangePasswordSection onChanged={() => setSessionsVersion((version) => version + 1)} />
      <SessionsSection version={sessionsVersion} />
      <PersonalTokensSection />
      <DeactivateAccountSection />
      {me.role === 'admin' && <AuditLogSection />}
    </Modal>
  );
}
