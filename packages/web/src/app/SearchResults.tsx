import { useId } from 'react';
import { failureText, methods, type Channel, type Conversation } from '../api/client';
import { formatFullTime } from './format';
import { shortTime } from './PinnedPanel';
import { messagePath, navigate } from './route';
import { readableSnippet } from './readableSnippet';
import { groupByChat, type ChatGroup, type SearchMatch } from './searchResults';
import { useWorkspace } from './workspaceContext';

/** The chat's name as the sidebar shows it: `#name` for a channel, the person's name for a direct chat. */
function chatName(group: ChatGroup, conversations: Conversation[] | undefined, publicChannels: Channel[], nameOf: (id: string) => string | undefined): string {
  const known = conversations?.find((conversation) => conversation.chat === group.chat);
  if (known) return `${known.kind === 'channel' ? '#' : ''}${known.name}`;
  if (group.chatType === 'direct') return nameOf(group.chat) ?? 'A direct chat';
  const channel = publicChannels.find((candidate) => candidate.id === group.chat);
  return channel ? `#${channel.name}` : 'A channel';
}

/**
 * The snippet the server marked: matched words in <mark>, everything as React text (never HTML, so a
 * message's `<script>` shows as those characters).
 */
function Snippet({ match }: { match: SearchMatch }) {
  if (match.snippet.length === 0) return <>{match.message.text || 'A message without text'}</>;
  return (
    <>
      {readableSnippet(match.snippet).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  );
}

/** The search's matches, grouped by chat; a click opens the message in its chat (joining a public channel first). */
export function SearchResults({ matches, query, conversations, publicChannels, onOpen, onError }: {
  matches: SearchMatch[];
  query: string;
  conversations: Conversation[] | undefined;
  publicChannels: Channel[];
  onOpen: () => void;
  onError: (text: string) => void;
}) {
  const workspace = useWorkspace();
  const headingId = useId();
  if (matches.length === 0) return <p className="page-message">No messages match {query}.</p>;
  const open = async (group: ChatGroup, uid: string) => {
    try {
      if (group.joinable) {
        await methods.channels.join({ channelId: group.chat });
        await workspace.refreshConversations();
      }
      onOpen();
      navigate(messagePath(group.chat, uid));
    } catch (failure) {
      onError(failureText(failure));
    }
  };
  return (
    <div className="search-results" aria-label={`Results for ${query}`} role="region">
      {groupByChat(matches).map((group, groupIndex) => {
        const name = chatName(group, conversations, publicChannels, workspace.nameOf);
        return (
          <section key={group.chat} className="search-group" aria-labelledby={`${headingId}-${groupIndex}`}>
            <h3 id={`${headingId}-${groupIndex}`}>
              {name}
              {group.joinable && <span className="search-joinable">Public channel you are not in · opening a message joins it</span>}
            </h3>
            <ul className="message-links">
              {group.matches.map((match) => (
                <li key={match.message.uid}>
                  <a
                    className="message-link"
                    href={messagePath(group.chat, match.message.uid)}
                    onClick={(event) => {
                      event.preventDefault();
                      void open(group, match.message.uid);
                    }}
                  >
                    <span className="message-link-head">
                      <strong>{match.message.sendAs?.name ?? workspace.nameOf(match.message.from) ?? 'Someone'}</strong>
                      <time dateTime={new Date(match.message.timestamp).toISOString()} title={formatFullTime(match.message.timestamp, workspace.me.timeZone)}>
                        {shortTime(match.message.timestamp, workspace.me.timeZone)}
                      </time>
                    </span>
                    <span className="message-link-text search-snippet">
                      <Snippet match={match} />
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
