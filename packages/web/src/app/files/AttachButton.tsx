import { useRef, type ClipboardEvent } from 'react';

/** The 📎 button of a composer and the file picker it opens: the files picked go to `onFiles`. */
export function AttachButton({ label, onFiles }: { label: string; onFiles: (files: Iterable<File>) => void }) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="icon-button composer-attach" aria-label={label} title="Attach files" onClick={() => picker.current?.click()}>
        📎
      </button>
      <input
        ref={picker}
        type="file"
        multiple
        className="composer-attach-input"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          onFiles(event.target.files ?? []);
          event.target.value = '';
        }}
      />
    </>
  );
}

/** An image copied to the clipboard (a screenshot) is pasted as a file; text pasted along stays text. */
export function pasteFiles(event: ClipboardEvent<HTMLTextAreaElement>, onFiles: (files: File[]) => void): void {
  const files = [...event.clipboardData.files];
  if (files.length === 0) return;
  onFiles(files);
  if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
}
