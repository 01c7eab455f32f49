// The messenger origin's connections over a real socket, written as raw bytes so the test is the client, not a
// library's idea of one. Requests that ask to upgrade to something other than a WebSocket (`Upgrade: h2c`, sent by
// curl --http2 and by Java's default HttpClient) are answered as the HTTP/1.1 requests they also are (before, never
// answered). A body refused as too large leaves the connection usable for the next request, or says it closes it.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { LIMITS } from '../../src/dev/limits';

let p: DevPlatform;
let port: number;

beforeAll(async () => {
  p = await startDevPlatform({ miniAppId: 'polls', audience: 'https://polls.example' });
  port = Number(new URL(p.origin).port);
});
afterAll(() => p.close());

/**
 * Writes `request` (its parts one after another) on a new connection and gives what came back once `done` says the
 * answers are all there, or once the server closed the connection.
 */
function exchange(request: string | string[], done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no full answer within 5 s; got: ${JSON.stringify(text.slice(0, 2000))}`));
    }, 5000);
    const finish = () => {
      clearTimeout(timer);
      socket.end();
      resolve(text);
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (done(text)) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => {});
    for (const part of [request].flat()) socket.write(part);
  });
}

const CERTS = '/realms/svc-dev/protocol/openid-connect/certs';
const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n';
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

describe('an Upgrade: h2c request', () => {
  it('gets the key set as plain HTTP/1.1, not a 101', async () => {
    const text = await exchange(`GET ${CERTS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${h2c}\r\n`, (t) =>
      t.includes('"keys"'),
    );
    expect(statuses(text)).toEqual([200]);
    expect(text).not.toMatch(/^upgrade:/im);
  });

  it('with a body is answered, and the next request on the same connection too', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(5000) });
    const request =
      `POST /v1/rooms/general/cards HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${h2c}` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      `GET ${CERTS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    const text = await exchange(request, (t) => t.includes('"keys"'));
    // The unsigned POST is refused for what it is (401, the signature), then the GET behind it is served.
    expect(statuses(text)).toEqual([401, 200]);
    expect(text).toContain('signature');
  });

  it('keeps Connection: close when the client asked for it', async () => {
    const request = `GET ${CERTS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close, Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n`;
    const text = await exchange(request, (t) => t.includes('"keys"'));
    expect(text).toMatch(/^connection: close/im);
  });
});

describe('a WebSocket upgrade the platform does not take', () => {
  it('is still refused with a status, not left open', async () => {
    const request =
      `GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    const text = await exchange(request, (t) => t.includes('\r\n\r\n'));
    expect(statuses(text)).toEqual([404]);
  });
});

describe('a body over the limit', () => {
  const certs = () => `GET ${CERTS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
  const post = (headers: string) =>
    `POST /v1/rooms/general/cards HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${headers}\r\n`;
  const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;

  it('with a Content-Length is read before its 413, so the next request on the connection is answered', async () => {
    const body = 'a'.repeat(LIMITS.serverApiBody + 1000);
    const text = await exchange([post(`Content-Length: ${body.length}\r\n`), body, certs()], (t) =>
      t.includes('"keys"'),
    );
    expect(statuses(text)).toEqual([413, 200]);
    expect(text).not.toMatch(/^connection: close/im);
  });

  it('sent in chunks is read to its end too, and the next request is answered', async () => {
    const part = chunk('b'.repeat(64 * 1024));
    const parts: string[] = Array(Math.ceil(LIMITS.serverApiBody / (64 * 1024)) + 1).fill(part);
    const text = await exchange([post('Transfer-Encoding: chunked\r\n'), ...parts, '0\r\n\r\n', certs()], (t) =>
      t.includes('"keys"'),
    );
    expect(statuses(text)).toEqual([413, 200]);
  });

  it('that stops coming is answered 413 with Connection: close, and the connection closed', async () => {
    const text = await exchange(
      [post('Content-Length: 100000000\r\n'), 'c'.repeat(LIMITS.serverApiBody + 1000)],
      () => false,
    );
    expect(statuses(text)).toEqual([413]);
    expect(text).toMatch(/^connection: close/im);
    expect(text).toContain('The body has 100000000 bytes');
  });
});
