import { Modal } from './Modal';

/** Every keyboard shortcut of the page, where it works, as the person presses it. */
const SHORTCUTS: ReadonlyArray<{ section: string; keys: ReadonlyArray<[string, string]> }> = [
  {
    section: 'Moving around',
    keys: [
      ['Ctrl/Cmd + K', 'Jump to a conversation'],
      ['Ctrl/Cmd + F', 'Search messages'],
      ['Alt + ↑ / ↓', 'The conversation above or below in the sidebar'],
      ['Alt + Shift + ↑ / ↓', 'The nearest unread conversation above or below'],
      ['Ctrl/Cmd + /', 'These shortcuts'],
    ],
  },
  {
    section: 'Writing',
    keys: [
      ['Enter', 'Send (save, in an edit)'],
      ['Shift + Enter', 'A new line'],
      ['Ctrl/Cmd + B, Ctrl/Cmd + I', 'Bold, italic (the selection)'],
      ['↑', 'Edit your last message (in an empty composer)'],
      ['@  :  /', 'Name someone, write an emoji, call a slash command (/ first in the box)'],
      ['Escape', 'Cancel an edit; close a list or a dialog'],
    ],
  },
];

/** "Keyboard shortcuts" (Ctrl/Cmd+/). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} className="shortcuts-dialog">
      <div className="modal-form">
        {SHORTCUTS.map(({ section, keys }) => (
          <section key={section} aria-label={section}>
            <h3 className="shortcuts-section">{section}</h3>
            <dl className="shortcuts">
              {keys.map(([key, what]) => (
                <div key={key} className="shortcut">
                  <dt>
                    <kbd>{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
