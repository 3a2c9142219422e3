import { fileLimits, type FileInfoModel } from '@aviary/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { uploadRefusalText, worthRetrying } from './fileFormat';
import { isAbort, uploadFile } from './uploadFile';

/** A file on its way into the composer's next message. */
export interface Upload {
  key: string;
  file: File;
  /** Bytes sent of `total`. */
  sent: number;
  total: number;
  state: 'uploading' | 'done' | 'failed';
  /** The server's FileInfo, once uploaded. */
  info?: FileInfoModel | undefined;
  /** Why it failed, in the person's words, and whether trying again may work. */
  problem?: string | undefined;
  retryable?: boolean | undefined;
}

export interface Uploads {
  items: Upload[];
  /** Starts uploading each file at once (more than a message carries fail on their row). */
  add(files: Iterable<File>): void;
  /** Stops an upload under way (the server keeps nothing of it) or takes a file out. */
  cancel(key: string): void;
  retry(key: string): void;
  /** Takes the uploaded files out, to send with the message. */
  take(): Upload[];
  /** Puts taken files back, when the message was refused. */
  putBack(taken: Upload[]): void;
  /** Whether an upload is still under way: the message waits for it. */
  busy: boolean;
}

let keys = 0;

/** The composer's uploads: each file uploads on its own, with its progress, cancel and refusal. */
export function useUploads(): Uploads {
  const [items, setItems] = useState<Upload[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const latest = useRef(items);
  latest.current = items;

  const change = (key: string, update: Partial<Upload>) => setItems((list) => list.map((item) => (item.key === key ? { ...item, ...update } : item)));

  const start = useCallback((key: string, file: File) => {
    const controller = new AbortController();
    controllers.current.set(key, controller);
    uploadFile(file, { signal: controller.signal, onProgress: (sent, total) => change(key, { sent, total }) }).then(
      (info) => change(key, { state: 'done', info, sent: file.size, total: file.size }),
      (error: unknown) => {
        if (isAbort(error)) return;
        change(key, { state: 'failed', problem: uploadRefusalText(error), retryable: worthRetrying(error) });
      },
    ).finally(() => controllers.current.delete(key));
  }, []);

  const add = useCallback(
    (files: Iterable<File>) => {
      const room = fileLimits.maxFilesPerMessage - latest.current.length;
      const added: Upload[] = [...files].map((file, index) => ({
        key: `u${++keys}`,
        file,
        sent: 0,
        total: file.size,
        ...(index < room
          ? { state: 'uploading' as const }
          : { state: 'failed' as const, problem: `A message carries at most ${fileLimits.maxFilesPerMessage} files: send these first, then the rest.` }),
      }));
      latest.current = [...latest.current, ...added];
      setItems((list) => [...list, ...added]);
      for (const item of added) if (item.state === 'uploading') start(item.key, item.file);
    },
    [start],
  );

  const cancel = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    setItems((list) => list.filter((item) => item.key !== key));
  }, []);

  const retry = useCallback(
    (key: string) => {
      setItems((list) => list.map((item) => (item.key === key ? { ...item, state: 'uploading', sent: 0, problem: undefined, retryable: undefined } : item)));
      const item = latest.current.find((row) => row.key === key);
      if (item) start(key, item.file);
    },
    [start],
  );

  const take = useCallback(() => {
    const done = latest.current.filter((item) => item.state === 'done');
    setItems((list) => list.filter((item) => item.state !== 'done'));
    return done;
  }, []);
  const putBack = useCallback((taken: Upload[]) => setItems((list) => [...taken, ...list]), []);

  // Leaving the chat stops what is still uploading.
  useEffect(() => {
    const running = controllers.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  const busy = items.some((item) => item.state === 'uploading');
  return useMemo(() => ({ items, add, cancel, retry, take, putBack, busy }), [items, add, cancel, retry, take, putBack, busy]);
}
