import type { Message } from '../api/client';
import { useMessageChanges } from './messageChanges';
import { reactorsText } from './reactionState';
import { useWorkspace } from './workspaceContext';

/**
 * A message's reactions under it: one pill per emoji with its count, pressed when the person reacted
 * (a click takes it back, or adds theirs), who reacted in its tooltip and its accessible name; then a
 * button for another emoji.
 */
export function ReactionPills({ message, onAdd }: { message: Message; onAdd: () => void }) {
  const workspace = useWorkspace();
  const changes = useMessageChanges();
  const reactions = message.reactions ?? [];
  if (reactions.length === 0) return null;
  const me = workspace.me.id;
  // An archived channel's reactions are shown as they stand, and take no more.
  const readOnly = changes.readOnly;
  return (
    <div className="reactions" role="group" aria-label="Reactions">
      {reactions.map((reaction) => {
        const who = reactorsText(reaction, (id) => workspace.nameOf(id) ?? 'someone', me);
        return (
          <button
            key={reaction.emoji}
            type="button"
            className={`reaction-pill${reaction.me ? ' mine' : ''}`}
            aria-pressed={reaction.me}
            aria-label={`${reaction.emoji} ${reaction.count}: ${who}`}
            title={`${who} reacted with ${reaction.emoji}`}
            disabled={readOnly}
            onClick={() => changes.toggleReaction(message, reaction.emoji)}
          >
            <span className="reaction-emoji" aria-hidden="true">{reaction.emoji}</span>
            <span className="reaction-count" aria-hidden="true">{reaction.count}</span>
          </button>
        );
      })}
      {!readOnly && (
        <button type="button" className="reaction-pill reaction-add" aria-label="Add a reaction" title="Add a reaction" onClick={onAdd}>
          <span aria-hidden="true">☺+</span>
        </button>
      )}
    </div>
  );
}
