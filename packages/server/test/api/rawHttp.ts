import { connect, type Socket } from 'node:net';

/** A raw HTTP/1.1 connection, for what fetch cannot do: trickle bytes, pipeline, keep a socket open. */
export class RawConnection {
  private received = '';
  private readonly waiters: Array<() => void> = [];
  readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.received += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.socket.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(url: string): Promise<RawConnection> {
    const connection = new RawConnection(Number(new URL(url).port));
    await new Promise<void>((resolve, reject) => connection.socket.once('connect', resolve).once('error', reject));
    return connection;
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Waits until `count` complete responses have arrived (or the socket closed) and parses them. */
  async responses(count: number, timeoutMs = 5000): Promise<RawResponse[]> {
    const deadline = Date.now() + timeoutMs;
    while (parseResponses(this.received).length < count && !this.socket.destroyed && this.socket.readyState !== 'closed') {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} responses; got: ${this.received}`);
      // Woken by the next chunk or the socket's close; the timer only bounds the wait.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return parseResponses(this.received);
  }

  close(): void {
    this.socket.destroy();
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.length) {
    const headerEnd = rest.indexOf('\r\n\r\n');
    if (headerEnd < 0) break;
    const [statusLine, ...lines] = rest.slice(0, headerEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headerEnd + 4;
    if (rest.length < bodyStart + length) break;
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(bodyStart, bodyStart + length) });
    rest = rest.slice(bodyStart + length);
  }
  return out;
}

export const request = (path: string, body = '', extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
