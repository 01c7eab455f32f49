import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';

/**
 * The messenger origin's WebSocket server as @hono/node-server takes it (`websocket.server`, its
 * `WebSocketServerLike`: a `ws` server made with `noServer`), with `ws` loaded on first use instead of at start.
 * Loading `ws` (and the modules it needs: https, tls, zlib) takes about 13 ms of a start that happens before the URL
 * is printed, and no page can connect before it has been served: the platform calls
 * {@link LazyWebSocketServer.load} once it has served the page, while the browser runs the page's script.
 *
 * What @hono/node-server uses of it: it listens for `connection` and `headers` and calls `handleUpgrade` and
 * `close`. The real server's `headers` events are passed on; `connection` is emitted here by @hono/node-server.
 * @internal
 */
export class LazyWebSocketServer extends EventEmitter {
  /** What @hono/node-server checks: the server handles no HTTP itself. */
  readonly options = { noServer: true } as const;
  private server: WebSocketServer | undefined;

  constructor(private readonly maxPayload: number) {
    super();
  }

  /** Loads `ws` and makes the real server, once. */
  load(): WebSocketServer {
    if (!this.server) {
      // A synchronous load: an upgrade that comes first is handled at once, in the same turn.
      const { WebSocketServer: Server } = createRequire(import.meta.url)('ws') as typeof import('ws');
      this.server = new Server({ noServer: true, maxPayload: this.maxPayload });
      this.server.on('headers', (headers, request) => this.emit('headers', headers, request));
    }
    return this.server;
  }

  /** Completes a WebSocket handshake (what `ws`'s own `handleUpgrade` does). */
  handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    done: (socket: WebSocket, request: IncomingMessage) => void,
  ): void {
    this.load().handleUpgrade(request, socket, head, done);
  }

  /** Closes the real server, when there is one. */
  close(): void {
    this.server?.close();
  }
}
