import { AviaryApiError, type FileInfoModel } from '@aviary/protocol';

/**
 * files.upload from the page: its own route takes multipart (not the method client's JSON), with the
 * session cookie, as a POST of this origin. A refusal throws AviaryApiError, as every other call does.
 */
export async function uploadFile(file: Blob, name: string): Promise<FileInfoModel> {
  const form = new FormData();
  form.append('file', file, name);
  const response = await fetch('/v1/files.upload', { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await response.json().catch(() => ({}))) as { file?: FileInfoModel } & Record<string, unknown>;
  if (!response.ok || !body.file) throw new AviaryApiError(response.status, body);
  return body.file;
}
