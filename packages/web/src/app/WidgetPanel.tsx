import { useEffect, useRef } from 'react';
import { useWidgetCalls, widgetSandbox, type WidgetOrigin } from './widgetCalls';
import { useWorkspace } from './workspaceContext';

export type { WidgetOrigin };

export interface OpenWidget {
  url: string;
  desktopType: 'modal' | 'sidebar';
  origin: WidgetOrigin;
}

/** An app's widget opened by an action: a modal dialog over the page, or a panel beside the conversation. */
export function WidgetPanel({ widget, onClose }: { widget: OpenWidget; onClose: () => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const workspace = useWorkspace();
  const appName = (widget.origin.appId ? workspace.appName(widget.origin.appId) : undefined) ?? 'App';
  useWidgetCalls(frame, widget.origin, onClose);
  useEffect(() => {
    if (widget.desktopType === 'modal' && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [widget.desktopType]);

  const body = (
    <>
      <header className="widget-header">
        <h2>{appName}</h2>
        <button type="button" className="icon-button" aria-label="Close the widget" onClick={onClose}>
          ×
        </button>
      </header>
      <iframe ref={frame} className="widget-frame" title={`${appName} widget`} src={widget.url} sandbox={widgetSandbox(widget.url)} />
    </>
  );
  if (widget.desktopType === 'sidebar') {
    return (
      <aside className="widget-sidebar" aria-label={`${appName} widget`}>
        {body}
      </aside>
    );
  }
  return (
    <dialog ref={dialog} className="widget-modal" aria-label={`${appName} widget`} onClose={onClose}>
      {body}
    </dialog>
  );
}
