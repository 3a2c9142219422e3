import { Component, Suspense, type ReactNode } from 'react';

/**
 * A part of the page whose code is loaded on first use (React's lazy) or that may fail to draw: its
 * failure stays its own. The rest of the page keeps working and a notice offers to reload: a part fails
 * to load when Aviary was updated since the page was opened (the old build's files are gone) or the
 * network dropped. Opening the part again (`retryKey` changes) tries it again.
 */
interface LoadedPartProps {
  children: ReactNode;
  fallback?: ReactNode;
  /** A string or number that changes when the part is opened anew: a failed part is tried again then. */
  retryKey?: string | number | undefined;
  /** What Dismiss does besides hiding the notice (closing the dialog that failed, say). */
  onDismiss?: () => void;
}

export class LoadedPart extends Component<LoadedPartProps, { failed: boolean; dismissed: boolean }> {
  override state = { failed: false, dismissed: false };

  static getDerivedStateFromError(): { failed: boolean; dismissed: boolean } {
    return { failed: true, dismissed: false };
  }

  override componentDidUpdate(previous: LoadedPartProps): void {
    if (this.state.failed && previous.retryKey !== this.props.retryKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (!this.state.failed) return <Suspense fallback={this.props.fallback ?? null}>{this.props.children}</Suspense>;
    if (this.state.dismissed) return null;
    return (
      <PartFailed
        onDismiss={() => {
          this.setState({ dismissed: true });
          this.props.onDismiss?.();
        }}
      />
    );
  }
}

/** What a person sees of a part that failed: why, most likely, and what to do. */
export function PartFailed({ onDismiss }: { onDismiss: () => void }) {
  return (
    <div className="part-failed" role="alert">
      <p>This part of Aviary could not be loaded. If Aviary was just updated, reloading the page brings the new version.</p>
      <div className="part-failed-actions">
        <button type="button" className="secondary" onClick={onDismiss}>
          Dismiss
        </button>
        <button type="button" className="primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}
