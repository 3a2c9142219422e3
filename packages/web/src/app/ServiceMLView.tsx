import { parseServiceML, renderServiceMLToHtml } from '@aviary/serviceml';
import { useMemo, type MouseEvent } from 'react';
import { methods } from '../api/client';
import { useWorkspace } from './workspaceContext';

/**
 * ServiceML shown with the shared renderer of @aviary/serviceml, which builds HTML from the parsed tree
 * only: every text and attribute is escaped, links and action URLs are checked again, and nothing but
 * a fixed set of tags is produced. That HTML is the only markup this page inserts. A document that does
 * not parse is shown as the message's plain text instead. `<action>` buttons call the message's app.
 */
export function ServiceMLView({ source, fallback, messageUid, attachmentId, appId, chat }: {
  source: string;
  fallback: string;
  messageUid: string;
  attachmentId?: string | undefined;
  appId?: string | undefined;
  chat: string;
}) {
  const workspace = useWorkspace();
  const html = useMemo(() => {
    const parsed = parseServiceML(source);
    return parsed.ok ? renderServiceMLToHtml(parsed.ast, { userName: workspace.nameOf }) : undefined;
  }, [source, workspace.nameOf]);
  if (html === undefined) return <div className="message-text">{fallback}</div>;

  const onClick = (event: MouseEvent) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button.sml-action');
    const actionId = button?.dataset.actionId;
    if (!actionId) return;
    void workspace.act(() => methods.interactions.runServicemlAction({ messageUid, actionId, attachmentId }), { appId, chat, messageUid, attachmentId });
  };
  // The click handler only delegates to the rendered <button>s, which are keyboard-reachable themselves.
  return <div className="message-text serviceml" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
