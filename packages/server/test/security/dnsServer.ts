import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One question the server was asked. */
export interface DnsQuery {
  name: string;
  type: 'A' | 'AAAA' | 'other';
}

/** The addresses to answer a query with: `index` counts earlier queries of that name and type. Undefined: no such name. */
export type DnsAnswers = (query: DnsQuery, index: number) => string[] | undefined;

export interface TestDnsServer {
  /** `127.0.0.1:port`, for `dnsServers`. */
  address: string;
  queries: DnsQuery[];
  close(): Promise<void>;
}

const typeCodes = { A: 1, AAAA: 28 } as const;

/**
 * A DNS server on 127.0.0.1 (UDP) that answers A and AAAA questions with whatever `answers` says at that
 * moment, with a TTL of 0 so that no resolver keeps an answer: enough to rebind a name between two
 * connections. Hand-written from RFC 1035's message format; it understands one question per message.
 */
export async function startDnsServer(answers: DnsAnswers): Promise<TestDnsServer> {
  const queries: DnsQuery[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, from) => {
    const question = parseQuestion(message);
    if (!question) return;
    const index = queries.filter((query) => query.name === question.query.name && query.type === question.query.type).length;
    queries.push(question.query);
    const addresses = answers(question.query, index);
    socket.send(answer(message, question.end, question.query.type, addresses), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** The first question's name and type, and where the question ends. */
function parseQuestion(message: Buffer): { query: DnsQuery; end: number } | undefined {
  if (message.length < 12 || message.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length && message[offset] !== 0) {
    const length = message[offset];
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += 1 + length;
  }
  const end = offset + 5;
  if (end > message.length) return undefined;
  const code = message.readUInt16BE(offset + 1);
  const type = code === typeCodes.A ? 'A' : code === typeCodes.AAAA ? 'AAAA' : 'other';
  return { query: { name: labels.join('.').toLowerCase(), type }, end };
}

/** A response to `request`: its question, then one record per address of the asked type (NXDOMAIN when undefined). */
function answer(request: Buffer, questionEnd: number, type: DnsQuery['type'], addresses: string[] | undefined): Buffer {
  const records = type === 'other' ? [] : (addresses ?? []).filter((address) => ipaddr.parse(address).kind() === (type === 'A' ? 'ipv4' : 'ipv6'));
  const header = Buffer.alloc(12);
  header.writeUInt16BE(request.readUInt16BE(0), 0);
  // Response, recursion desired copied, recursion available; rcode 3 (no such name) or 0.
  header.writeUInt16BE(0x8000 | (request.readUInt16BE(2) & 0x0100) | 0x0080 | (addresses === undefined ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const body = records.map((address) => {
    const bytes = Buffer.from(ipaddr.parse(address).toByteArray());
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(typeCodes[type as 'A' | 'AAAA'], 2);
    record.writeUInt16BE(1, 4); // class IN
    record.writeUInt32BE(0, 6); // TTL
    record.writeUInt16BE(bytes.length, 10);
    return Buffer.concat([record, bytes]);
  });
  return Buffer.concat([header, request.subarray(12, questionEnd), ...body]);
}
