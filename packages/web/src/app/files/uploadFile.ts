import { AviaryApiError, type FileInfoModel } from '@aviary/protocol';

export interface UploadOptions {
  /** Bytes sent so far of `total` (the whole request body), as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborts the upload: the promise rejects with an AbortError and the server keeps nothing of it. */
  signal?: AbortSignal;
}

/**
 * files.upload as the web client sends it: multipart with one part named `file`, to the page's own
 * server with the session cookie, as the typed client's calls go (the browser adds the Origin the
 * server's cross-site check asks for). XMLHttpRequest rather than fetch, which reports no upload
 * progress. A refusal rejects with AviaryApiError (its code, parameter and description), like every call
 * of the typed client; a connection that breaks, with a TypeError.
 */
export function uploadFile(file: File, { onProgress, signal }: UploadOptions = {}): Promise<FileInfoModel> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const request = new XMLHttpRequest();
    request.open('POST', '/v1/files.upload');
    request.responseType = 'json';
    request.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      const body: unknown = request.response;
      const answer = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
      if (request.status === 200 && answer.file) resolve(answer.file as FileInfoModel);
      else reject(new AviaryApiError(request.status, answer));
    };
    request.onerror = () => reject(new TypeError('The upload did not reach the server: the connection broke.'));
    request.ontimeout = request.onerror;
    request.onabort = () => reject(abortError());
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';
