import { methods, type Conversation } from '../../api/client';
import { MessageListDialog, placeOf, usePagedList } from '../MessageListDialog';

const mentionsPage = (cursor?: string) =>
  methods.chat.listMentions(cursor === undefined ? {} : { cursor }).then((page) => ({ items: page.messages, nextCursor: page.nextCursor }));

/** The "Mentions" view: recent messages that mention the person (chat.listMentions), newest first, a page at a time; each opens its chat at it. */
export function MentionsDialog({ me, conversations, onClose }: { me: string; conversations: Conversation[] | undefined; onClose: () => void }) {
  const list = usePagedList(mentionsPage);
  const entries = (list.items ?? []).map((message) => {
    const { chat, place } = placeOf(message, me, conversations);
    return { message, chat, detail: place };
  });
  return (
    <MessageListDialog
      title="Mentions"
      list={list}
      entries={entries}
      empty="Nobody has mentioned you yet. Messages with @your name, @channel or @here show here."
      label="Messages that mention you"
      onClose={onClose}
    />
  );
}
