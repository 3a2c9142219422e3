import type { ConnectionState } from './connection';

/** Tells the person when what they see may be behind: announced politely to screen readers. */
export function ConnectionBanner({ state }: { state: ConnectionState }) {
  const text = state === 'reconnecting' ? 'Reconnecting…' : state === 'signedOut' ? 'Signed out: reload the page to sign in again.' : '';
  return (
    <div role="status" className="connection-banner">
      {text}
    </div>
  );
}
