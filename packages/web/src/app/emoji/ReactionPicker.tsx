import { lazy, Suspense } from 'react';
import { Modal } from '../Modal';
import { recentEmoji, rememberEmoji } from '../recentEmoji';

const EmojiGrid = lazy(() => import('./EmojiGrid'));

/** "Add a reaction": the emoji picker in a dialog, its data fetched the first time it opens. */
export function ReactionPicker({ me, onPick, onClose }: { me: string; onPick: (emoji: string) => void; onClose: () => void }) {
  const pick = (emoji: string) => {
    rememberEmoji(me, emoji);
    onPick(emoji);
    onClose();
  };
  return (
    <Modal title="Add a reaction" onClose={onClose} className="reaction-picker">
      <Suspense fallback={<p className="picker-empty" role="status">Loading emoji…</p>}>
        <EmojiGrid recent={recentEmoji(me)} onPick={pick} />
      </Suspense>
    </Modal>
  );
}
