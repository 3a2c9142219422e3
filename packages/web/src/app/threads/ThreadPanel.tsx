import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { failureText, methods, type Message } from '../../api/client';
import { useStreamFrames } from '../../stream/useStream';
import { EmojiButton } from '../emoji/EmojiPicker';
import { AttachButton, pasteFiles } from '../files/AttachButton';
import { ChatImages } from '../files/ChatImages';
import { captionOf } from '../files/fileFormat';
import { UploadList } from '../files/UploadList';
import { useUploads } from '../files/useUploads';
import { loadDraft, saveDraft, threadDraftName } from '../drafts';
import { MessageChangesContext, useMessageChangesOf } from '../messageChanges';
import { MessageRow } from '../MessageRow';
import { applyReaction, reactionChangeOf, type ReactionChange } from '../reactionState';
import { updatedMessage, withPin } from '../useHistory';
import type { Mention } from '../suggestions';
import { useMessageText } from '../useMessageText';
import { useWorkspace } from '../workspaceContext';
import './threads.css';

const PAGE = 100;

/**
 * A message's thread: the parent, its replies (the newest 100, oldest first, kept live by the stream, and
 * "Load older replies" for the pages before, their files opening the viewer) and a composer with files
 * and "Also send to the channel". Each message is a row as in the chat, with its reactions and its tools
 * (react, edit and delete one's own, pin, save). A column
 * beside the conversation on a wide screen, the whole view on a phone; the workspace shows it for the
 * address's `?thread=`. Opening it, and each reply that comes while it is open, marks the thread read.
 */
export function ThreadPanel({ chat, root, reloads = 0, archived = false, onClose }: {
  chat: string;
  root: string;
  /** Changes when the stream could not replay a gap: the thread loads afresh, its composer and uploads stay. */
  reloads?: number;
  /** The chat is an archived channel: the thread is read, and takes no replies. */
  archived?: boolean;
  onClose: () => void;
}) {
  const workspace = useWorkspace();
  const [parent, setParent] = useState<Message>();
  const [replies, setReplies] = useState<Message[]>([]);
  const [older, setOlder] = useState<'none' | 'more' | 'loading'>('none');
  const [error, setError] = useState<string>();
  /** What the next render brings forward: the first reply (the focus, once the oldest page came) or one's own newest. */
  const [reveal, setReveal] = useState<'oldest' | 'newest'>();
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    Promise.all([methods.chat.fetchMessages({ chat, uids: [root] }), methods.chat.fetchMessages({ chat, thread: root, limit: PAGE })]).then(
      ([[found], page]) => {
        if (!live) return;
        setParent(found);
        setReplies(page.reverse());
        setOlder(page.length === PAGE ? 'more' : 'none');
      },
      (failure: unknown) => live && setError(failureText(failure)),
    );
    return () => {
      live = false;
    };
  }, [chat, root, reloads]);
  const oldest = replies[0]?.uid;
  const loadOlder = useCallback(async () => {
    if (oldest === undefined || older === 'loading') return;
    setOlder('loading');
    try {
      const page = await methods.chat.fetchMessages({ chat, thread: root, before: oldest, limit: PAGE });
      setReplies((shown) => [...page.reverse().filter((reply) => !shown.some((m) => m.uid === reply.uid)), ...shown]);
      setOlder(page.length === PAGE ? 'more' : 'none');
      // The button goes with the last page: the focus goes to the thread's first reply rather than the page.
      if (page.length < PAGE) setReveal('oldest');
    } catch (failure) {
      setError(failureText(failure));
      setOlder('more');
    }
  }, [chat, root, oldest, older]);
  const newest = replies.at(-1)?.uid;
  // Read up to the newest reply, once the thread is shown and at each reply; the answer says whether the
  // person follows it (the parent's author, a replier or someone named in it does, until they unfollow).
  const [following, setFollowing] = useState<boolean>();
  const loaded = parent !== undefined;
  useEffect(() => {
    if (loaded) methods.threads.markRead({ messageUid: root }).then((state) => setFollowing(state.following), () => undefined);
  }, [root, newest, loaded]);
  const toggleFollow = () => {
    const change = following ? methods.threads.unfollow : methods.threads.follow;
    change({ messageUid: root }).then((state) => setFollowing(state.following), (failure: unknown) => workspace.toast(failureText(failure), 'error'));
  };
  useEffect(() => panel.current?.querySelector<HTMLElement>('textarea')?.focus(), [root]);
  /** Each message shown, the parent and the replies, through `each`. */
  const changeShown = useCallback((each: (message: Message) => Message) => {
    setParent((shown) => shown && each(shown));
    setReplies((shown) => shown.map(each));
  }, []);
  const shownMessages = useMemo(
    () => ({
      replace: (changed: Message[]) => changeShown((message) => changed.reduce((at, now) => (now.uid === at.uid ? updatedMessage(at, now) : at), message)),
      remove: (uids: string[]) => setReplies((shown) => shown.filter((message) => !uids.includes(message.uid))),
      react: (reactions: Array<ReactionChange & { uid: string }>, me: string) => changeShown((message) => reactions.reduce((at, change) => (change.uid === at.uid ? applyReaction(at, change, me) : at), message)),
    }),
    [changeShown],
  );
  const changes = useMessageChangesOf(shownMessages, archived);
  const me = workspace.me.id;
  useStreamFrames((frames) => {
    for (const frame of frames) {
      if (frame.type === 'message.created' && frame.message.threadParent === root) setReplies((shown) => (shown.some((m) => m.uid === frame.message.uid) ? shown : [...shown, frame.message]));
      if (frame.type === 'message.updated') shownMessages.replace([frame.message]);
      if (frame.type === 'message.deleted') {
        if (frame.message.uid === root) onClose();
        shownMessages.remove([frame.message.uid]);
      }
      if (frame.type === 'thread.updated' && frame.message.uid === root) setParent((shown) => shown && { ...shown, thread: frame.thread });
      if (frame.type === 'thread.followUpdated' && frame.message.uid === root) setFollowing(frame.following);
      const reaction = reactionChangeOf(frame);
      if (reaction) shownMessages.react([reaction], me);
      if (frame.type === 'pin.added' || frame.type === 'pin.removed') {
        const pinned = frame.type === 'pin.added' ? { by: frame.userId, at: frame.pinnedAt } : undefined;
        changeShown((message) => (message.uid === frame.message.uid ? withPin(message, pinned) : message));
      }
    }
  });
  // One's own reply comes into view, however far up the person had scrolled.
  const sent = useCallback((message: Message) => {
    setReplies((shown) => (shown.some((m) => m.uid === message.uid) ? shown : [...shown, message]));
    setReveal('newest');
  }, []);
  useEffect(() => {
    if (reveal === 'oldest') {
      const first = body.current?.querySelector<HTMLElement>('.thread-replies article');
      if (first) first.tabIndex = -1;
      first?.focus();
    }
    if (reveal === 'newest') body.current?.scrollTo({ top: body.current.scrollHeight });
    if (reveal) setReveal(undefined);
  }, [reveal, replies]);
  const count = parent?.thread?.replyCount ?? replies.length;

  return (
    <aside ref={panel} className="thread-panel" aria-labelledby={titleId} onKeyDown={(event) => closesThread(event) && onClose()}>
      <header className="thread-panel-header">
        <h2 id={titleId}>Thread</h2>
        {following !== undefined && (
          <button type="button" className="secondary" onClick={toggleFollow} title={following ? 'Stop being notified of new replies' : 'Be notified of new replies'}>
            {following ? 'Unfollow' : 'Follow'}
          </button>
        )}
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </header>
      <ChatImages messages={parent ? [parent, ...replies] : replies}>
      <MessageChangesContext.Provider value={changes}>
      <div ref={body} className="thread-panel-body">
        {error && <p className="form-error" role="alert">{error}</p>}
        {parent && <MessageRow message={parent} continued={false} chat={chat} />}
        <p className="thread-panel-count">{count === 1 ? '1 reply' : `${count} replies`}</p>
        {older !== 'none' && (
          <button type="button" className="secondary thread-older" onClick={() => void loadOlder()} aria-busy={older === 'loading'}>
            Load older replies
          </button>
        )}
        <ol className="thread-replies" aria-label="Replies">
          {replies.map((reply) => (
            <li key={reply.uid}>
              <MessageRow message={reply} continued={false} chat={chat} />
            </li>
          ))}
        </ol>
      </div>
      </MessageChangesContext.Provider>
      </ChatImages>
      {parent?.deletedAt === undefined && !archived && <ThreadComposer chat={chat} root={root} onSent={sent} />}
    </aside>
  );
}

/**
 * Escape closes the thread, unless it is someone else's: a dialog opened from the panel (the image viewer,
 * a widget) closes itself, and a reply being written stays (Escape in a composer with text).
 */
function closesThread(event: KeyboardEvent<HTMLElement>): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented) return false;
  const target = event.target as HTMLElement;
  if (target.closest('dialog')) return false;
  return !(target instanceof HTMLTextAreaElement && target.value.trim() !== '');
}

function ThreadComposer({ chat, root, onSent }: { chat: string; root: string; onSent: (message: Message) => void }) {
  const me = useWorkspace().me.id;
  const box = useRef<HTMLTextAreaElement>(null);
  // A reply being written is kept as the chat's message is (drafts.ts), under the thread's own name: it
  // survives closing the thread, going elsewhere and a reload.
  const draftName = threadDraftName(chat, root);
  const [draft] = useState(() => loadDraft(me, draftName));
  const mentions = useRef<Mention[]>(draft.mentions);
  // `@` and `:` as in the chat's composer; a reply calls no slash command.
  const { text, setText, insert, outgoing, list, boxProps, onListKeys } = useMessageText(box, { chat, initial: draft.text, mentions, commands: false });
  useEffect(() => saveDraft(me, draftName, { text, mentions: mentions.current }), [me, draftName, text]);
  const [alsoInChannel, setAlsoInChannel] = useState(false);
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const uploads = useUploads();
  const uploaded = uploads.items.some((item) => item.state === 'done');
  const canSend = !sending && !uploads.busy && (text.trim() !== '' || uploaded);
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    setError(undefined);
    const files = uploads.take();
    const picked = [...mentions.current];
    try {
      const ids = files.flatMap((item) => (item.info ? [item.info.id] : []));
      const { body, serviceml, mentioned } = outgoing(picked);
      const caption = captionOf(body, files.map((item) => item.file.name));
      const answer = await methods.chat.sendFromComposer({
        to: chat,
        text: caption,
        threadParent: root,
        ...(serviceml ? { serviceml } : {}),
        ...(mentioned.length > 0 ? { mentions: mentioned } : {}),
        ...(ids.length > 0 ? { files: ids } : {}),
        ...(alsoInChannel ? { alsoInChannel: true } : {}),
      });
      if ('message' in answer) onSent(answer.message);
      // What was typed while it went stays for the next reply, with the people picked for it.
      setText((now) => (now === text ? '' : now));
      mentions.current = mentions.current.filter((mention) => !picked.includes(mention));
      // Each reply is the thread's alone unless asked again, as in other chat tools.
      setAlsoInChannel(false);
    } catch (failure) {
      setError(failureText(failure));
      uploads.putBack(files);
    } finally {
      setSending(false);
    }
  };
  return (
    <form className="thread-composer" onSubmit={send}>
      {error && <p className="form-error" role="alert">{error}</p>}
      <UploadList uploads={uploads} />
      {list}
      <textarea
        ref={box}
        {...boxProps}
        aria-label="Reply in the thread"
        placeholder="Reply…"
        onPaste={(event) => pasteFiles(event, uploads.add)}
        onKeyDown={(event) => {
          if (onListKeys(event)) return;
          // Enter that ends an input method's composition (Chinese, Japanese, Korean) picks the text; it sends nothing.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <div className="thread-composer-row">
        <AttachButton label="Attach files to the reply" onFiles={uploads.add} />
        <EmojiButton me={me} onPick={insert} />
        <label>
          <input type="checkbox" checked={alsoInChannel} onChange={(event) => setAlsoInChannel(event.target.checked)} />
          Also send to the channel
        </label>
        <button type="submit" className="primary" disabled={!canSend}>
          Reply
        </button>
      </div>
    </form>
  );
}
