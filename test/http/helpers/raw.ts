// Raw HTTP over node:net: send exact bytes, read until the server closes, parse the answer.
import { connect } from 'node:net';
import { bytesOf } from '../../../http/bytes.js';

export interface RawAnswer {
  readonly status: number | null;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export function parseAnswer(raw: Buffer): RawAnswer {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: match ? Number(match[1]) : null, headers,
    body: end < 0 ? '' : raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'))
      .toString('utf8') };
}

/** Sends bytes on a fresh connection; resolves with what came back when the server closes. */
export function exchange(port: number, bytes: Buffer, timeoutMs = 3_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(bytesOf(chunk)));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks))));
    socket.write(bytesOf(bytes));
  });
}
