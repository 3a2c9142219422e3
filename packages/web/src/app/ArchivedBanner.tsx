import './admin.css';

/** In place of the composer in an archived channel: it is read-only until a team admin unarchives it. */
export function ArchivedBanner({ name }: { name: string }) {
  return (
    <p className="archived-banner" role="status">
      #{name} is archived: you can read it and search it, but nothing can be sent to it or changed in it until a team admin unarchives it.
    </p>
  );
}

/** In place of the composer in a direct chat with someone whose account was deactivated. */
export function DeactivatedBanner({ name }: { name: string }) {
  return (
    <p className="archived-banner" role="status">
      {name}’s account has been deactivated: you can read your conversation, but they no longer receive messages.
    </p>
  );
}
