import { lazy, useState } from 'react';
import { LoadedPart } from '../LoadedPart';
import { Modal } from '../Modal';
import { recentEmoji, rememberEmoji } from '../recentEmoji';

const EmojiGrid = lazy(() => import('./EmojiGrid'));

/**
 * The emoji picker in a dialog ("Add a reaction", "Insert an emoji"), its data fetched the first time it
 * opens. What is picked joins the person's recent emoji, shared by reactions and the composers.
 */
export function EmojiPicker({ title, me, onPick, onClose }: { title: string; me: string; onPick: (emoji: string) => void; onClose: () => void }) {
  const pick = (emoji: string) => {
    rememberEmoji(me, emoji);
    onPick(emoji);
    onClose();
  };
  return (
    <Modal title={title} onClose={onClose} className="reaction-picker">
      <LoadedPart fallback={<p className="picker-empty" role="status">Loading emoji…</p>} onDismiss={onClose}>
        <EmojiGrid recent={recentEmoji(me)} onPick={pick} />
      </LoadedPart>
    </Modal>
  );
}

/** A composer's 🙂 button: the picker (a Modal, outside the composer's form), its emoji put in the text at the caret (`onPick`). */
export function EmojiButton({ me, onPick }: { me: string; onPick: (emoji: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="icon-button composer-emoji" aria-label="Insert an emoji" title="Insert an emoji" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        🙂
      </button>
      {open && <EmojiPicker title="Insert an emoji" me={me} onPick={onPick} onClose={() => setOpen(false)} />}
    </>
  );
}
