import { memo } from 'react';
import { api, type Message } from '../api/client';
import { AttachmentCard } from './AttachmentCard';
import { Avatar } from './Avatar';
import { formatFullTime, formatTime } from './format';
import { ServiceMLView } from './ServiceMLView';
import { useWorkspace } from './workspaceContext';

/** One message: its sender (or `sendAs`), "via" the app that sent it, its text or ServiceML, its attachments. */
export const MessageRow = memo(function MessageRow({ message, continued, chat }: { message: Message; continued: boolean; chat: string }) {
  const workspace = useWorkspace();
  const appName = message.appId ? (workspace.appName(message.appId) ?? 'an app') : undefined;
  const sender = message.sendAs?.name ?? workspace.nameOf(message.from) ?? 'Someone';
  const time = (
    <time dateTime={new Date(message.timestamp).toISOString()} title={formatFullTime(message.timestamp, workspace.me.timezone)}>
      {formatTime(message.timestamp, workspace.me.timezone)}
    </time>
  );
  const actions = workspace.apps.filter((app) => app.installed && !app.disabledByUser && !app.disabledByTeam && app.integrations.messageAction);

  return (
    <article className={`message${continued ? ' continued' : ''}`} aria-label={`${sender}${appName ? ` via ${appName}` : ''}`}>
      <div className="message-gutter">{continued ? <span className="message-hover-time">{time}</span> : <Avatar name={sender} image={message.sendAs?.profileImage} />}</div>
      <div className="message-body">
        {!continued && (
          <header className="message-header">
            <span className="message-sender">{sender}</span>
            {appName && <span className="via-app">via {appName}</span>}
            {message.visibleTo && <span className="only-you">Only visible to some</span>}
            {time}
          </header>
        )}
        {message.serviceml ? (
          <ServiceMLView source={message.serviceml} fallback={message.text} messageUid={message.uid} appId={message.appId} chat={chat} />
        ) : (
          message.text !== '' && <div className="message-text">{message.text}</div>
        )}
        {message.attachments?.map((attachment, index) => <AttachmentCard key={attachment.id ?? index} attachment={attachment} message={message} chat={chat} />)}
      </div>
      {actions.length > 0 && (
        <div className="message-actions">
          {actions.map((app) => (
            <button
              key={app.id}
              type="button"
              className="chip"
              onClick={() => workspace.act(() => api.messageAction(app.id, chat, [message.uid]), { appId: app.id, chat })}
            >
              {app.integrations.messageAction!.name}
            </button>
          ))}
        </div>
      )}
    </article>
  );
});
