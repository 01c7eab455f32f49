import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { WSContext, WSEvents } from 'hono/ws';
import { CHANNEL_PING, type ChannelReply, type ChannelRequest } from '../devContract';
import type { OpenPage, PageChannel } from '../PageChannel';
import { LIMITS } from '../limits';
import { LazyWebSocketServer } from './LazyWebSocketServer';
import type { PlatformEnv } from './PlatformEnv';

/** A page's connection, with what ends it from the platform's side. */
interface Follower extends OpenPage {
  end(): void;
}

/** Answers one request a page sent on its channel; rejects with the sentence the page is told. */
export type ChannelAnswer = (request: ChannelRequest) => Promise<unknown>;

/**
 * The messenger pages' connections: each page's WebSocket (what the page itself uses: the events, and its answers to
 * relayed MCP calls on the same connection), and the same events as server-sent events (Hono's `streamSSE`) for a
 * reader that only follows. Each gets a first event when it connects, then every event {@link broadcast} sends; the
 * {@link PageChannel} the agent bridge sees.
 * @internal
 */
export function createPageChannel() {
  const open = new Set<Follower>();
  const opening = new Set<(page: OpenPage) => void>();
  /** A page that writes events with `write` (a no-op once closed) and is closed by `close`. */
  const join = (write: (type: string, data: string) => void, close: () => void): Follower => {
    const listeners = new Set<() => void>();
    const page: Follower = {
      closed: false,
      send: (type, data) => {
        if (!page.closed) write(type, data);
      },
      onClose(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      end() {
        if (page.closed) return;
        (page as { closed: boolean }).closed = true;
        open.delete(page);
        for (const listener of listeners) listener();
        close();
      },
    };
    return page;
  };
  const opened = (page: Follower, first: [string, string] | undefined) => {
    if (first) page.send(...first);
    open.add(page);
    for (const listener of opening) listener(page);
  };

  /** Serves one reader's event stream: `first` (the whole state) at once, then what is broadcast, until either side ends it. */
  const follow = (c: Context<PlatformEnv>, first: [string, string]): Response => {
    const response = streamSSE(c, async (stream) => {
      let ended!: () => void;
      const done = new Promise<void>((resolve) => {
        ended = resolve;
      });
      // Frames are queued in order by the stream's writer; a write to a closed stream is dropped.
      const page = join((type, data) => void stream.write(`event: ${type}\ndata: ${data}\n\n`).catch(() => {}), ended);
      stream.onAbort(page.end);
      // The node response's close is the reader's: the tab closed, or its connection dropped.
      c.env?.outgoing?.once('close', page.end);
      opened(page, first);
      await done;
    });
    response.headers.set('cache-control', 'no-store');
    return response;
  };

  /**
   * One page's WebSocket: `first` at once (when it gives one), then what is broadcast, each as
   * `{"event":…,"data":…}`; each request the page sends (`{n, route, body}`) is answered on the same socket as
   * `{re: n, answer}` or `{re: n, error}`.
   */
  const socket = (first: () => [string, string] | undefined, answer: ChannelAnswer): WSEvents => {
    let page: Follower | undefined;
    const reply = (ws: WSContext, message: ChannelReply) => {
      if (ws.readyState === 1) ws.send(JSON.stringify(message));
    };
    return {
      onOpen(_event, ws) {
        page = join(
          (type, data) => ws.send(`{"event":${JSON.stringify(type)},"data":${data}}`),
          () => ws.close(1001, 'svc dev stopped'),
        );
        opened(page, first());
      },
      onMessage(event, ws) {
        let request: ChannelRequest;
        try {
          request = JSON.parse(String(event.data));
        } catch {
          return ws.close(1007, 'each message must be one JSON request {n, route, body}');
        }
        if (typeof request?.n !== 'number')
          return ws.close(1008, 'each message must carry its number n, to match the reply');
        // The page's probe: answered here, by the platform being there.
        if ((request.route as string) === CHANNEL_PING) return reply(ws, { re: request.n, answer: 'pong' });
        // Every request is replied to, whatever its answer throws: the page waits for it.
        Promise.resolve(request)
          .then(answer)
          .then(
            (value) => reply(ws, { re: request.n, answer: value }),
            (error: Error) => reply(ws, { re: request.n, error: error.message }),
          );
      },
      onClose: () => page?.end(),
      onError: () => page?.end(),
    };
  };

  return {
    follow,
    socket,
    /** The server the pages' WebSockets are upgraded by (the messenger origin's server takes it). */
    server: new LazyWebSocketServer(LIMITS.channelMessage),
    /** Whether any page listens (serialising the state costs as much as it is large: only then). */
    get listening() {
      return open.size > 0;
    },
    /** Sends one event (its data as JSON text, serialised once) to every open page. */
    broadcast(type: string, data: string) {
      for (const page of open) page.send(type, data);
    },
    /** The seam the agent bridge sees. */
    channel: {
      pages: () => [...open],
      onOpen(listener) {
        opening.add(listener);
        return () => opening.delete(listener);
      },
    } satisfies PageChannel,
    /** Ends every connection (the platform is closing). */
    closeAll() {
      for (const page of [...open]) page.end();
    },
  };
}

/** The pages of one platform. @internal */
export type Pages = ReturnType<typeof createPageChannel>;
