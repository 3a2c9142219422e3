import { checkUrl } from '@aviary/serviceml';
import { useEffect, useRef, useState } from 'react';
import { failureText, methods, type Attachment, type Message } from '../api/client';
import { ImageView } from './ImageView';
import { ServiceMLView } from './ServiceMLView';
import { useWidgetCalls, widgetSandbox, type WidgetOrigin } from './widgetCalls';
import { useWorkspace } from './workspaceContext';
import { attachmentWidgetView, type AttachmentWidgetView } from './widgetUrls';

interface CardProps {
  attachment: Attachment;
  /** Its position in the message: how the server finds an `html` view's document. */
  index: number;
  message: Message;
  chat: string;
}

/**
 * An attachment: the colour bar, its title and description, the first present view of widget > html >
 * serviceml > image, its downloads and buttons. An `html` view is the server's document of it (served with
 * its own policy: its styles, no scripts) in an iframe sandboxed without scripts or same-origin rights.
 */
export function AttachmentCard({ attachment, index, message, chat }: CardProps) {
  const workspace = useWorkspace();
  const views = attachment.views ?? {};
  const origin = { appId: attachment.appId ?? message.appId, chat, messageUid: message.uid, attachmentId: attachment.id };
  const link = safeUrl(attachment.url);
  const downloads = (attachment.downloads ?? []).flatMap((download) => {
    const src = safeUrl(download.src);
    return src ? [{ ...download, src }] : [];
  });
  const barStyle = attachment.color ? { borderInlineStartColor: attachment.color } : undefined;

  return (
    <section className="attachment" style={barStyle} aria-label={attachment.title ?? 'Attachment'}>
      {attachment.title &&
        (link ? (
          <a className="attachment-title" href={link} target="_blank" rel="noopener noreferrer">
            {attachment.title}
          </a>
        ) : (
          <span className="attachment-title">{attachment.title}</span>
        ))}
      {attachment.description && <p className="attachment-description">{attachment.description}</p>}
      {views.widget && attachment.id ? (
        <AttachmentWidget messageUid={message.uid} attachmentId={attachment.id} origin={origin} />
      ) : views.html ? (
        <iframe
          className="attachment-html"
          title={attachment.title ?? 'Attachment content'}
          sandbox=""
          src={`/attachments/${encodeURIComponent(message.uid)}/${index}/html`}
          width={views.html.width ?? '100%'}
          height={views.html.height ?? 200}
        />
      ) : views.serviceml ? (
        <ServiceMLView source={views.serviceml} fallback={attachment.description ?? ''} messageUid={message.uid} attachmentId={attachment.id} appId={origin.appId} chat={chat} />
      ) : views.image && safeUrl(views.image.original.src) ? (
        <ImageView image={views.image} alt={attachment.title ?? views.image.filename ?? 'Attached image'} />
      ) : null}
      {downloads.length > 0 && (
        <ul className="downloads" aria-label="Downloads">
          {downloads.map((download) => (
            <li key={download.src}>
              <a href={download.src} download={download.filename ?? true} target="_blank" rel="noopener noreferrer" className="download">
                ⬇ {download.filename ?? new URL(download.src).pathname.split('/').pop() ?? 'Download'}
                {download.size !== undefined && <span className="download-size"> · {formatBytes(download.size)}</span>}
              </a>
            </li>
          ))}
        </ul>
      )}
      {attachment.buttons && attachment.id && (
        <div className="attachment-buttons">
          {attachment.buttons.map((button) => (
            <button
              key={button.id}
              type="button"
              className="secondary"
              onClick={() => workspace.act(() => methods.interactions.pressButton({ messageUid: message.uid, attachmentId: attachment.id!, buttonId: button.id }), origin)}
            >
              {button.name}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

/**
 * The widget view: the server signs a URL carrying client.openAttachmentWidget, shown at the size the
 * answer gives; the URL is kept while it is valid (widgetUrls.ts), so a row that mounts again keeps it.
 */
function AttachmentWidget({ messageUid, attachmentId, origin }: { messageUid: string; attachmentId: string; origin: WidgetOrigin }) {
  const personId = useWorkspace().me.id;
  const [widget, setWidget] = useState<AttachmentWidgetView>();
  const [problem, setProblem] = useState<string>();
  const frame = useRef<HTMLIFrameElement>(null);
  useWidgetCalls(frame, origin);
  useEffect(() => {
    let current = true;
    attachmentWidgetView(personId, messageUid, attachmentId).then(
      (view) => current && setWidget(view),
      (error: unknown) => current && setProblem(failureText(error)),
    );
    return () => {
      current = false;
    };
  }, [personId, messageUid, attachmentId]);
  if (problem) return <p className="attachment-problem">{problem}</p>;
  if (!widget) return <p className="attachment-problem">Loading the widget…</p>;
  return (
    <iframe
      ref={frame}
      className="attachment-widget"
      title="Attachment widget"
      src={widget.url}
      sandbox={widgetSandbox(widget.url)}
      width={widget.width ?? '100%'}
      height={widget.height ?? 240}
    />
  );
}

/**
 * The server stores only URLs its checks passed; the page checks again before making a link, so a row
 * written some other way (an older version, a restored backup) cannot become a javascript: link.
 */
function safeUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const checked = checkUrl(url, ['http', 'https']);
  return checked.ok ? checked.url : undefined;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
