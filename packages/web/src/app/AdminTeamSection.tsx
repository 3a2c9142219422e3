import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Team } from '@aviary/protocol';
import { methods } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { BroadcastMentionSetting } from './notify/BroadcastMentionSetting';
import { PictureField } from './PictureField';
import { SignInSettings } from './SignInSettings';
import { useWorkspace } from './workspaceContext';

const fields = ['name', 'whoMayCreateChannels', 'whoMayInvite', 'appCreators', 'messageEditWindowMinutes'] as const;

/**
 * The team's settings, saved together (team.updateSettings), and its icon, saved when chosen (team.setIcon). Two more settings have their own slots,
 * filled by their own components: sign-in methods and `@channel` limits.
 */
export function AdminTeamSection() {
  const workspace = useWorkspace();
  const [team, setTeam] = useState<Team>();
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);
  const id = useId();
  const { toast } = workspace;
  // Loaded once, when the section opens: what the stream changes in the workspace meanwhile never
  // replaces what the admin is typing.
  useEffect(() => {
    methods.team.getInfo({}).then(
      ({ team: loaded }) => setTeam(loaded),
      (failure: unknown) => toast(String(failure), 'error'),
    );
  }, [toast]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!team) return;
    clear();
    try {
      const { name, whoMayCreateChannels, whoMayInvite, appCreators, messageEditWindowMinutes } = team;
      const saved = (await methods.team.updateSettings({ name, whoMayCreateChannels, whoMayInvite, appCreators, messageEditWindowMinutes })).team;
      setTeam(saved);
      workspace.updateTeam(saved);
      workspace.toast('The team’s settings are saved.');
    } catch (failure) {
      refuse(failure);
    }
  };
  /** The icon is saved on its own (team.setIcon), and the sidebar shows it at once; unsaved settings stay as typed. */
  const showIcon = (saved: Team, done: string) => {
    setTeam((current) => (current ? { ...current, icon: saved.icon } : saved));
    workspace.updateTeam(saved);
    workspace.toast(done);
  };
  const set = <K extends keyof Team>(key: K, value: Team[K]) => setTeam((current) => (current ? { ...current, [key]: value } : current));

  return (
    <>
      <form className="modal-form account-section" onSubmit={save} noValidate aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`}>Team settings</h3>
        {team === undefined ? (
          <p className="field-hint">Loading…</p>
        ) : (
          <>
            <label>
              Team name
              <input value={team.name} onChange={(event) => set('name', event.target.value)} {...invalid('name')} />
              {refusal('name')}
            </label>
            <PictureField
              label="Team icon"
              name={team.name}
              image={team.icon}
              onSet={async (file) => showIcon((await methods.team.setIcon({ file })).team, 'The team’s icon is saved.')}
              onRemove={async () => showIcon((await methods.team.removeIcon({})).team, 'The team’s icon is removed.')}
            />
            <label>
              Who may create channels
              <select value={team.whoMayCreateChannels} onChange={(event) => set('whoMayCreateChannels', event.target.value as Team['whoMayCreateChannels'])}>
                <option value="everyone">Everyone, guests too</option>
                <option value="members">Members and admins</option>
                <option value="admins">Admins only</option>
              </select>
            </label>
            <label>
              Who may invite people
              <select value={team.whoMayInvite} onChange={(event) => set('whoMayInvite', event.target.value as Team['whoMayInvite'])}>
                <option value="admins">Admins only</option>
                <option value="members">Members and admins</option>
              </select>
            </label>
            <label>
              Who may create apps
              <select value={team.appCreators} onChange={(event) => set('appCreators', event.target.value as Team['appCreators'])}>
                <option value="everyone">Everyone, guests too</option>
                <option value="members">Members and admins</option>
                <option value="admins">Admins only</option>
              </select>
            </label>
            <label>
              Message edit window (minutes; 0 for no limit)
              <input
                type="number"
                min={0}
                value={team.messageEditWindowMinutes}
                onChange={(event) => set('messageEditWindowMinutes', Number(event.target.value))}
                {...invalid('messageEditWindowMinutes')}
              />
              {refusal('messageEditWindowMinutes')}
            </label>
            {formRefusal}
            <div className="modal-actions">
              <button type="submit" className="primary">
                Save settings
              </button>
            </div>
          </>
        )}
      </form>
      <SignInSettings />
      <BroadcastMentionSetting />
    </>
  );
}
