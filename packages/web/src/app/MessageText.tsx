import { useMemo } from 'react';
import type { Message } from '../api/client';
import { isNamesOnly } from './files/fileFormat';
import { MarkdownView } from './MarkdownView';
import { ServiceMLView } from './ServiceMLView';
import { composerMentions } from './suggestions';
import { useWorkspace } from './workspaceContext';

/**
 * What a message says: its text as Markdown, the people it mentions marked with their current names when
 * its ServiceML is the composer's (a person's `@` picks: suggestions.ts, composerMentions); any other
 * ServiceML (an app's) as ServiceML. Nothing when the text only names the message's files.
 */
export function MessageText({ message, chat }: { message: Message; chat: string }) {
  const named = useNamed(message);
  const { serviceml, text, appId } = message;
  if (serviceml !== undefined && named === undefined) return <ServiceMLView source={serviceml} fallback={text} messageUid={message.uid} appId={appId} chat={chat} />;
  if (text === '' || isNamesOnly(text, message.files)) return null;
  return <MarkdownView text={text} named={named} />;
}

/**
 * A message's text in a list of messages (mentions, saved, pinned, threads): its Markdown with the people
 * it mentions marked as in the history, never its ServiceML's controls (the row is a link to the message).
 */
export function MessagePreview({ message }: { message: Message }) {
  const named = useNamed(message);
  return <MarkdownView text={message.text} named={named} />;
}

/** The people a person's message names, with their current names (undefined for a message with other ServiceML, or none). */
function useNamed({ serviceml, text, appId }: Message) {
  const { nameOf } = useWorkspace();
  return useMemo(() => {
    const mentions = serviceml !== undefined && appId === undefined ? composerMentions(serviceml, text) : undefined;
    return mentions?.map((mention) => ({ ...mention, name: nameOf(mention.userId) ?? mention.label }));
  }, [serviceml, text, appId, nameOf]);
}
