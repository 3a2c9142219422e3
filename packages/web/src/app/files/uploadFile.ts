import { AviaryApiError, type FileInfoModel } from '@aviary/protocol';
import { methods } from '../../api/client';

export interface UploadOptions {
  /** Bytes sent so far of `total` (the whole request body), as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborts the upload: the promise rejects with an AbortError and the server keeps nothing of it. */
  signal?: AbortSignal;
}

/** Files from this size go in parts (files.startUpload, files.uploadPart, files.finishUpload): a dropped connection costs a part, not the file. */
export const RESUMABLE_FROM = 8 * 1024 * 1024;
/** The bytes of one part. */
export const PART_BYTES = 4 * 1024 * 1024;
/** How many times in a row a part is sent again after the connection broke, waiting longer each time. */
const RETRIES = 5;

/**
 * A file uploaded as the web client sends it, to the page's own server with the session cookie, as the
 * typed client's calls go (the browser adds the Origin the server's cross-site check asks for): whole
 * as files.upload's multipart when small (its size given, so that it is checked before the body goes and
 * stored in one piece), in parts that resume after a dropped connection when large.
 * A refusal rejects with AviaryApiError (its code, parameter and description), like every call of the
 * typed client; a connection that breaks (and, in parts, keeps breaking), with a TypeError.
 */
export function uploadFile(file: File, options: UploadOptions = {}): Promise<FileInfoModel> {
  return file.size >= RESUMABLE_FROM ? uploadInParts(file, options) : uploadWhole(file, options);
}

async function uploadWhole(file: File, { onProgress, signal }: UploadOptions): Promise<FileInfoModel> {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await post(`/v1/files.upload?size=${file.size}`, form, { signal, onProgress: (sent, total) => onProgress?.(sent, total || file.size) });
  return answer.file as FileInfoModel;
}

/**
 * files.startUpload checks the size and the team's quota before a byte goes; each part is posted at the
 * upload's offset; after a broken connection the server says where to go on from (files.getUpload).
 * Cancelled, the upload is left to the server's sweep, which removes its parts.
 */
async function uploadInParts(file: File, { onProgress, signal }: UploadOptions): Promise<FileInfoModel> {
  const { upload } = await methods.files.startUpload({ name: file.name, size: file.size });
  let offset = upload.offset;
  let failures = 0;
  while (offset < file.size) {
    if (signal?.aborted) throw abortError();
    const start = offset;
    const part = file.slice(start, Math.min(file.size, start + PART_BYTES));
    const path = `/v1/files.uploadPart?uploadId=${encodeURIComponent(upload.uploadId)}&offset=${start}`;
    try {
      const answer = await post(path, part, { signal, onProgress: (sent) => onProgress?.(start + sent, file.size) });
      offset = (answer.upload as { offset: number }).offset;
      failures = 0;
    } catch (error) {
      if (!(error instanceof TypeError) || ++failures > RETRIES) throw error;
      await pause(500 * 2 ** failures, signal);
      offset = (await methods.files.getUpload({ uploadId: upload.uploadId })).upload.offset;
    }
  }
  onProgress?.(file.size, file.size);
  return (await methods.files.finishUpload({ uploadId: upload.uploadId })).file;
}

/** A POST of `body` by XMLHttpRequest (fetch reports no upload progress): the answer's JSON, or the refusal as AviaryApiError. */
function post(path: string, body: XMLHttpRequestBodyInit, { onProgress, signal }: UploadOptions): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.responseType = 'json';
    request.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
    request.onload = () => {
      const answer: unknown = request.response;
      const fields = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
      if (request.status === 200) resolve(fields);
      else reject(new AviaryApiError(request.status, fields));
    };
    request.onerror = () => reject(new TypeError('The upload did not reach the server: the connection broke.'));
    request.ontimeout = request.onerror;
    request.onabort = () => reject(abortError());
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(abortError());
    }, { once: true });
  });
}

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';
