/** One request of the matrix: what it sends, and the answer as status and parsed body. */
export interface MatrixRequest {
  method: string;
  /** The path and query, e.g. `/v1/chat.sendMessage` or `/api/session`. */
  path: string;
  json?: unknown;
  /** A multipart body with one part named `file` (files.upload) instead of JSON. */
  upload?: { name: string; text: string | Uint8Array };
  /** A raw body (files.uploadPart's part) instead of JSON. */
  raw?: string;
}

export interface Answer {
  status: number;
  body: any;
}

/** Sends a request with the credential, if any, as `Authorization: Bearer` (sessions and app tokens alike). */
export async function send(baseUrl: string, method: string, path: string, options: { json?: unknown; bearer?: string; upload?: MatrixRequest['upload']; raw?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.upload ? multipart(options.upload) : options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json)) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (/widget.js, an empty 204): the cell compares the status.
  }
  return { status: response.status, body };
}

function multipart(upload: NonNullable<MatrixRequest['upload']>): FormData {
  const form = new FormData();
  form.append('file', new Blob([typeof upload.text === 'string' ? upload.text : new Uint8Array(upload.text)]), upload.name);
  return form;
}
