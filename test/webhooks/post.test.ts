// The HTTP POST of one delivery attempt against real sockets: a kept-alive connection that the
// receiver dropped while idle is retried once on a new connection within the attempt.
import { createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAgents, postOnce } from '../../actors/webhooks/post.js';

const post = suite('webhook post');

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n';

/** A receiver that answers each connection's first request and resets on a later one. */
async function resettingReceiver(resetLater: boolean): Promise<{ server: Server; port: number;
  connections: () => number; requests: () => number }> {
  let connections = 0;
  let requests = 0;
  const server = createServer((socket: Socket) => {
    connections++;
    let answered = 0;
    socket.on('data', (chunk) => {
      if (!chunk.toString('latin1').includes('\r\n\r\n')) return; // headers and body in one read
      if (answered > 0 && resetLater) {
        socket.resetAndDestroy();
        return;
      }
      answered++;
      requests++;
      socket.write(OK);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, port, connections: () => connections, requests: () => requests };
}

function target(port: number) {
  const url = new URL(`http://127.0.0.1:${port}/hook`);
  return { url, host: '127.0.0.1', address: '127.0.0.1', family: 4 as const };
}

post('a reused socket reset by the receiver is sent again on a new connection', async () => {
  const receiver = await resettingReceiver(true);
  const agents = createAgents(4);
  const options = { timeoutMs: 5_000, agents, signal: new AbortController().signal };
  try {
    const first = await postOnce(target(receiver.port), {}, '{"n":1}', options);
    assert.equal(first.kind === 'response' && first.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the socket goes back to the pool
    const second = await postOnce(target(receiver.port), {}, '{"n":2}', options);
    assert.equal(second.kind === 'response' && second.status, 200, JSON.stringify(second));
    assert.is(receiver.connections(), 2);
    assert.is(receiver.requests(), 2);
  } finally {
    agents.http.destroy();
    receiver.server.close();
  }
});

post('a reset on a new connection is a failed attempt, not sent twice', async () => {
  const server = createServer((socket: Socket) =>
    socket.on('data', () => socket.resetAndDestroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  let connections = 0;
  server.on('connection', () => { connections++; });
  const agents = createAgents(4);
  try {
    const result = await postOnce(target(port), {}, '{}',
      { timeoutMs: 5_000, agents, signal: new AbortController().signal });
    assert.is(result.kind, 'error');
    assert.is(connections, 1);
  } finally {
    agents.http.destroy();
    server.close();
  }
});

post.run();
