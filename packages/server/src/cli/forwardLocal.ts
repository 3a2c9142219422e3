import type { ListenEventFrame, ListenReplyFrame } from '@aviary/protocol';

/**
 * An event frame POSTed to a local URL with its exact headers and body, as the server would have sent
 * it; the local answer (or why there was none) as the reply frame. The developer chose the URL, so it
 * is not held to the server's outbound address policy: `aviary listen` and `app install --forward-to`.
 */
export async function forwardToLocal(frame: ListenEventFrame, url: string, timeoutMs: number): Promise<ListenReplyFrame> {
  try {
    const response = await fetch(url, { method: 'POST', headers: frame.headers, body: frame.body, signal: AbortSignal.timeout(timeoutMs) });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { type: 'answer', id: frame.id, status: response.status, headers, body: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return { type: 'unreachable', id: frame.id, error: (cause ?? (error as Error).message).slice(0, 1000) };
  }
}
