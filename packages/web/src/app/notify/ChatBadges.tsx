/**
 * A sidebar row's counts (a chat's, or the followed threads'): the messages that mention the person ("@2",
 * red) apart from the unread ones (the number); a muted chat shows its unread count dimmed.
 */
export function ChatBadges({ unread = 0, mentions = 0, muted }: { unread?: number | undefined; mentions?: number | undefined; muted?: boolean }) {
  if (unread === 0 && mentions === 0) return null;
  return (
    <span className="chat-badges">
      {mentions > 0 && (
        <span className="mention-badge" aria-label={`${mentions} mentioning you`} title={`${mentions} mentioning you`}>
          @{mentions > 99 ? '99+' : mentions}
        </span>
      )}
      {unread > 0 && (
        <span className={`unread-badge${muted ? ' muted' : ''}`} aria-label={`${unread} unread${muted ? ' (muted)' : ''}`} title={`${unread} unread`}>
          {unread > 999 ? '999+' : unread}
        </span>
      )}
    </span>
  );
}
