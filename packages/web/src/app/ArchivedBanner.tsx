import './admin.css';

/** In place of the composer in an archived channel: it is read-only until a team admin unarchives it. */
export function ArchivedBanner({ name }: { name: string }) {
  return (
    <p className="archived-banner" role="status">
      #{name} is archived: you can read it and search it, but nothing can be sent to it or changed in it until a team admin unarchives it.
    </p>
  );
}
