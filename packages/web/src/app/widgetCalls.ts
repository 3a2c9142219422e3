import { useEffect, type RefObject } from 'react';
import { methods } from '../api/client';
import type { WidgetOrigin } from './widgetOrigin';
import { useWorkspace } from './workspaceContext';

export type { WidgetOrigin } from './widgetOrigin';

/**
 * Calls a widget page makes through /widget.js: `openWidget`, `openBrowser` and `close`, posted to this
 * window. Only messages whose source is this iframe's window count, whatever their origin: the page
 * knows which app the iframe belongs to, the message does not get to say.
 */
export function useWidgetCalls(frame: RefObject<HTMLIFrameElement | null>, origin: WidgetOrigin, onClose?: () => void): void {
  const workspace = useWorkspace();
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const data = event.data as Record<string, unknown> | null;
      if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
      if (data.type === 'aviary:close') return onClose?.();
      const { appId } = origin;
      if (!appId || typeof data.url !== 'string') return;
      const context = origin.messageUid ? { messageUid: origin.messageUid, attachmentId: origin.attachmentId } : { chat: origin.chat };
      if (data.type === 'aviary:openWidget') {
        const desktopType = data.desktopType === 'sidebar' ? 'sidebar' : data.desktopType === 'modal' ? 'modal' : undefined;
        void workspace.act(() => methods.interactions.runWidgetAction({ appId, kind: 'openWidget', url: data.url as string, desktopType, ...context }), origin);
      } else if (data.type === 'aviary:openBrowser') {
        void workspace.act(() => methods.interactions.runWidgetAction({ appId, kind: 'openBrowser', url: data.url as string, sendContext: data.sendContext === true, ...context }), origin);
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frame, origin, onClose, workspace]);
}

/**
 * Widgets run the app's own page in its own origin, so they keep their origin's rights (cookies,
 * storage) but never ours: a URL on this page's origin loses allow-same-origin, or it could reach into
 * the page that frames it.
 */
export function widgetSandbox(url: string): string {
  const base = 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox';
  try {
    return new URL(url).origin === location.origin ? base : `${base} allow-same-origin`;
  } catch {
    return base;
  }
}
