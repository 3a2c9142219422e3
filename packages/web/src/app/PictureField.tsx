import { useId, useRef, useState, type ChangeEvent } from 'react';
import { failureText } from '../api/client';
import { uploadFile } from './files/uploadFile';
import { Avatar } from './Avatar';
import './pictures.css';

/**
 * A picture chosen from the device: the person's own (the profile dialog) or the team's icon (the admin
 * console). The image is uploaded (files.upload) and handed to `onSet`, which makes the picture of it on
 * the server (resized, metadata dropped); the server's refusal (not an image, too large) shows below.
 */
export function PictureField({
  label,
  name,
  image,
  onSet,
  onRemove,
}: {
  label: string;
  name: string;
  image: string | undefined;
  onSet: (fileId: string) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await work();
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) void run(async () => onSet((await uploadFile(file)).id));
  };

  return (
    <div className="picture-field" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="picture-label">
        {label}
      </span>
      <div className="picture-row">
        <Avatar name={name} image={image} />
        <label className="secondary picture-choose">
          {image ? 'Change…' : 'Upload…'}
          <input ref={input} type="file" accept="image/png,image/jpeg,image/gif,image/webp,image/avif" onChange={choose} disabled={busy} aria-describedby={`${id}-hint`} />
        </label>
        {image && (
          <button type="button" className="secondary" disabled={busy} onClick={() => void run(onRemove)}>
            Remove
          </button>
        )}
        {busy && <span className="field-hint">Saving…</span>}
      </div>
      <span id={`${id}-hint`} className="field-hint">
        PNG, JPEG, GIF, WebP or AVIF, up to 10 MB; cut to a square.
      </span>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
