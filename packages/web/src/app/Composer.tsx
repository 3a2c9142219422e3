import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { failureText, methods, type Message } from '../api/client';
import { appsWith, ChatButton } from './AppButtons';
import { loadDraft, saveDraft } from './drafts';
import { formatFullTime } from './format';
import { ScheduleDialog } from './schedule/ScheduleDialog';
import { captionOf } from './files/fileFormat';
import { EmojiButton } from './emoji/EmojiPicker';
import { AttachButton, pasteFiles } from './files/AttachButton';
import { UploadList } from './files/UploadList';
import type { Uploads } from './files/useUploads';
import type { Mention } from './suggestions';
import { useMessageText } from './useMessageText';
import { useWorkspace } from './workspaceContext';

/** Ctrl/Cmd + these keys wrap the selection in Markdown: bold, italic. */
const FORMAT_KEYS: ReadonlyMap<string, string> = new Map([['b', '**'], ['i', '*']]);

/**
 * A multi-line textbox (its list of suggestions announced through aria-autocomplete, as screen readers
 * expect of a message field). Enter sends, Shift+Enter adds a line. `@` picks a person (a mention), a
 * leading `/` lists the slash commands of the person's apps. A slash command's answer is followed (toast, widget, tab); a `/` that
 * names no command goes out as text, as the server decides. Each chat keeps its draft (drafts.ts), across
 * reloads; Ctrl/Cmd+B and +I wrap the selection in Markdown's bold and italic; Up in the empty box edits the
 * person's last message. Files (the attach button, a paste, or a drop on the conversation) upload at once,
 * each on its own row (files/UploadList.tsx); the message, its text their caption, goes once they are up.
 */
export function Composer({ chat, placeholder, focusSignal, onSent, onEditLast, onScheduled, uploads }: {
  chat: string;
  placeholder: string;
  /** A message was scheduled for later ("Schedule for later", 🕘): the chat's list of them is asked again. */
  onScheduled?: () => void;
  /** The files of the next message (useUploads, the conversation's: a drop on it adds to them). */
  uploads: Uploads;
  focusSignal?: number;
  onSent: (message: Message) => void;
  /** Up in the empty box: edit the person's last message; false when there is none. */
  onEditLast?: () => boolean;
}) {
  const workspace = useWorkspace();
  const me = workspace.me.id;
  // The draft of this chat, as left before (across reloads too); the component is made anew for each chat.
  const [draft] = useState(() => loadDraft(me, chat));
  const mentions = useRef<Mention[]>(draft.mentions);
  const input = useRef<HTMLTextAreaElement>(null);
  const { text, setText, edit, select, insert, outgoing, list, boxProps, onListKeys } = useMessageText(input, { chat, initial: draft.text, mentions, commands: true });
  // Whether the composer is still shown: a message the outbox delivers (or that is refused) after the
  // person moved to another chat concerns the chat it was written in, not the view now open.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => void (shown.current = false);
  }, []);

  // A conversation opens ready to type in, as people expect of a chat; so does choosing it again (Ctrl+K).
  useEffect(() => input.current?.focus(), [chat, focusSignal]);
  useEffect(() => saveDraft(me, chat, { text, mentions: mentions.current }), [me, chat, text]);
  const pickers = appsWith(workspace.apps, 'attachmentPickerButton');

  /** Ctrl/Cmd+B and +I: the selection (or nothing, the caret between) wrapped in Markdown's `**` or `*`, and still selected. */
  const wrapSelection = (marker: string) => {
    const box = input.current;
    if (!box) return;
    const [start, end] = [box.selectionStart, box.selectionEnd];
    edit(text.slice(0, start) + marker + text.slice(start, end) + marker + text.slice(end), end + marker.length);
    select(start + marker.length, end + marker.length);
  };

  const canSend = text.trim() !== '' || uploads.items.some((item) => item.state === 'done');
  // Enter while files upload: the message goes once the last of them is up (or given up).
  const [queued, setQueued] = useState(false);

  // Sent at once and the box cleared: the outbox keeps the message (shown as pending) until the server
  // has it. A refusal puts the text (above whatever was typed meanwhile) and the files back.
  const send = () => {
    if (uploads.busy) return setQueued(true);
    if (!canSend) return;
    const { body, serviceml, mentioned } = outgoing();
    const files = uploads.take();
    const picked = mentions.current;
    mentions.current = [];
    edit('', 0);
    input.current?.focus();
    const caption = captionOf(body, files.map((item) => item.file.name));
    workspace.outbox.send(chat, caption, serviceml, mentioned, files.flatMap((item) => (item.info ? [item.info.id] : []))).then(
      (delivered) => {
        if (!delivered) return;
        // Gone from view: the stream brings the message to its chat; the view open now stays as it is.
        if (!('message' in delivered)) workspace.showAnswer(delivered.answer, { appId: delivered.appId, chat });
        else if (shown.current) onSent(delivered.message);
      },
      (error: unknown) => {
        workspace.toast(failureText(error), 'error');
        // Never lost: over what was typed since, the refused text comes back above it.
        if (shown.current) {
          setText((current) => (current === '' ? body : `${body}\n\n${current}`));
          mentions.current = [...picked, ...mentions.current];
        }
        // Refused after the person left the chat: the text waits in its draft (above one written since).
        else {
          const draft = loadDraft(me, chat);
          saveDraft(me, chat, { text: draft.text === '' ? body : `${body}\n\n${draft.text}`, mentions: [...picked, ...draft.mentions] });
        }
        uploads.putBack(files);
      },
    );
  };

  // "Schedule for later": the message (the text with the people it names, and the files uploaded) goes at a
  // time picked in the dialog; the server holds the files for it until then.
  const [scheduling, setScheduling] = useState(false);
  const canSchedule = canSend && !uploads.busy;
  const toSchedule = () => {
    const { body, serviceml, mentioned } = outgoing();
    const files = uploads.items.flatMap((item) => (item.state === 'done' && item.info ? [item.info] : []));
    return { text: captionOf(body, files.map((file) => file.name)), serviceml, mentioned, files: files.map((file) => file.id) };
  };
  const scheduleAt = async (at: number) => {
    const { text: caption, serviceml, mentioned, files } = toSchedule();
    await methods.chat.scheduleMessage({
      to: chat,
      text: caption,
      sendAt: at,
      ...(serviceml ? { serviceml } : {}),
      ...(mentioned.length > 0 ? { mentions: mentioned } : {}),
      ...(files.length > 0 ? { files } : {}),
    });
    uploads.take();
    mentions.current = [];
    edit('', 0);
    workspace.toast(`Scheduled for ${formatFullTime(at, workspace.me.timeZone)}.`);
    onScheduled?.();
  };
  // The dialog closed: the box has the focus back (the button that opened it may be disabled now).
  const wasScheduling = useRef(false);
  useEffect(() => {
    if (wasScheduling.current && !scheduling) input.current?.focus();
    wasScheduling.current = scheduling;
  }, [scheduling]);

  useEffect(() => {
    if (!queued || uploads.busy) return;
    setQueued(false);
    send();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const format = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey ? FORMAT_KEYS.get(event.key.toLowerCase()) : undefined;
    if (format) {
      wrapSelection(format);
      return event.preventDefault();
    }
    if (onListKeys(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'ArrowUp' && text === '' && !event.shiftKey && onEditLast?.()) {
      event.preventDefault();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {list}
      <div className="composer-box">
        <UploadList uploads={uploads} />
        <textarea
          ref={input}
          rows={1}
          {...boxProps}
          placeholder={placeholder}
          aria-label={placeholder}
          onKeyDown={onKeyDown}
          onPaste={(event) => pasteFiles(event, uploads.add)}
        />
        <div className="composer-tools">
          <AttachButton
            label="Attach files"
            onFiles={(files) => {
              uploads.add(files);
              input.current?.focus();
            }}
          />
          <EmojiButton me={me} onPick={insert} />
          <button
            type="button"
            className="icon-button composer-schedule"
            aria-label="Schedule for later"
            title={uploads.busy ? 'Schedule once the files are uploaded' : 'Schedule for later'}
            aria-haspopup="dialog"
            disabled={!canSchedule}
            onClick={() => setScheduling(true)}
          >
            🕘
          </button>
          {pickers.map((app) => (
            <ChatButton key={app.id} app={app} button="attachmentPickerButton" chat={chat} className="chip">
              + {app.integrations.attachmentPickerButton!.name}
            </ChatButton>
          ))}
          <span className="composer-hint" aria-hidden="true">
            {uploads.busy ? (
              queued ? 'Sending once the files are uploaded…' : 'Uploading…'
            ) : (
              <>
                <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
              </>
            )}
          </span>
          <button type="submit" className="primary send-button" disabled={!canSend && !uploads.busy}>
            Send
          </button>
        </div>
      </div>
      {scheduling && <ScheduleDialog text={toSchedule().text} onSchedule={scheduleAt} onClose={() => setScheduling(false)} />}
    </form>
  );
}
