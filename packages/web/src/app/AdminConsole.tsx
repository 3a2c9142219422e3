import { useId, useState } from 'react';
import { AdminAppsSection } from './AdminAppsSection';
import { AdminChannelsSection } from './AdminChannelsSection';
import { AdminPeopleSection } from './AdminPeopleSection';
import { AdminTeamSection } from './AdminTeamSection';
import { AuditLogSection } from './AuditLogSection';
import { InvitationsSection } from './InvitationsSection';
import { Modal } from './Modal';
import './admin.css';

const sections = ['People', 'Channels', 'Apps', 'Team settings', 'Audit log', 'Invitations'] as const;
type Section = (typeof sections)[number];

/**
 * The admin console, for team admins only (the sidebar shows its button to them alone; every method it
 * calls refuses anyone else): the team's people, channels, apps and settings, its audit log and its
 * invitations, one section at a time behind tabs.
 */
export function AdminConsole({ onClose }: { onClose: () => void }) {
  const [section, setSection] = useState<Section>('People');
  const id = useId();
  const tabId = (name: Section) => `${id}-tab-${name.replace(' ', '-')}`;
  // The arrows move the selection and the focus with it (the tab pattern: only the selected tab is in the Tab order).
  const move = (step: number) => {
    const next = sections[(sections.indexOf(section) + step + sections.length) % sections.length];
    setSection(next);
    document.getElementById(tabId(next))?.focus();
  };
  return (
    <Modal title="Admin console" onClose={onClose} className="admin-console">
      <div
        role="tablist"
        aria-label="Admin console sections"
        className="admin-tabs"
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
            event.preventDefault();
            move(event.key === 'ArrowRight' ? 1 : -1);
          }
        }}
      >
        {sections.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={tabId(name)}
            aria-selected={section === name}
            aria-controls={`${id}-panel`}
            tabIndex={section === name ? 0 : -1}
            className="admin-tab"
            onClick={() => setSection(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={tabId(section)} className="admin-panel">
        {section === 'People' && <AdminPeopleSection />}
        {section === 'Channels' && <AdminChannelsSection />}
        {section === 'Apps' && <AdminAppsSection />}
        {section === 'Team settings' && <AdminTeamSection />}
        {section === 'Audit log' && <AuditLogSection />}
        {section === 'Invitations' && <InvitationsSection version={0} />}
      </div>
    </Modal>
  );
}
