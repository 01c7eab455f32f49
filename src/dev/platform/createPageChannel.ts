import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { OpenPage, PageChannel } from '../PageChannel';
import type { PlatformEnv } from './PlatformEnv';

/** A page's stream, with what ends it from the platform's side. */
interface Follower extends OpenPage {
  end(): void;
}

/**
 * The messenger pages' event streams (server-sent events, served with Hono's `streamSSE`): each page gets a first
 * frame when it connects, then every frame {@link broadcast} sends; the {@link PageChannel} the agent bridge sees.
 * @internal
 */
export function createPageChannel() {
  const open = new Set<Follower>();
  const opening = new Set<(page: OpenPage) => void>();
  /** Serves one page's stream: `first` (the whole state) at once, then what is broadcast, until either side ends it. */
  const follow = (c: Context<PlatformEnv>, first: string): Response => {
    const response = streamSSE(c, async (stream) => {
      const listeners = new Set<() => void>();
      let ended!: () => void;
      const done = new Promise<void>((resolve) => {
        ended = resolve;
      });
      const page: Follower = {
        closed: false,
        send: (frame) => {
          // Frames are queued in order by the stream's writer; a write to a closed stream is dropped.
          if (!page.closed) void stream.write(frame).catch(() => {});
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
          ended();
        },
      };
      stream.onAbort(page.end);
      // The node response's close is the page's: the tab closed, or its connection dropped.
      c.env?.outgoing?.once('close', page.end);
      page.send(first);
      open.add(page);
      for (const listener of opening) listener(page);
      await done;
    });
    response.headers.set('cache-control', 'no-store');
    return response;
  };
  return {
    follow,
    /** Whether any page listens (serialising the state costs as much as it is large: only then). */
    get listening() {
      return open.size > 0;
    },
    /** Sends one frame to every open page. */
    broadcast(frame: string) {
      for (const page of open) page.send(frame);
    },
    /** The seam the agent bridge sees. */
    channel: {
      pages: () => [...open],
      onOpen(listener) {
        opening.add(listener);
        return () => opening.delete(listener);
      },
    } satisfies PageChannel,
    /** Ends every stream (the platform is closing). */
    closeAll() {
      for (const page of [...open]) page.end();
    },
  };
}

/** The pages of one platform. @internal */
export type Pages = ReturnType<typeof createPageChannel>;
