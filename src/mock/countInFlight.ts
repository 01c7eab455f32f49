import type { Transport } from '../rpc/Transport';

/** What the mock host counts to know that the channel is quiet: messages in transit and effects running. */
export interface InFlight {
  /** The two ends of the in-memory channel, each counting what it sends and what it receives. */
  pair(ends: readonly [Transport, Transport]): [Transport, Transport];
  /** Runs an effect of the host, counted until it settles. */
  run<T>(operation: () => T | Promise<T>): Promise<T>;
  /**
   * Resolves once no message is in transit and no effect runs, and a few turns later none has started: the
   * app's code that an answer resumed has had its turn to send the next message.
   */
  settled(): Promise<void>;
  /** The channel closed: nothing more will arrive, so nothing is waited for. */
  close(): void;
}

// How many microtask turns a resumed `await` chain gets to send its next message before the channel counts as quiet:
// an answer resumes the app's `await`, whose code may send again a few turns later.
const TURNS = 16;

/**
 * Counts the mock channel's traffic, so that `host.flush()` waits for what is really in flight instead of a fixed
 * number of turns. Microtasks only, no timers: it works under fake timers too. An effect a fault holds (`delay`,
 * `hang`) is not counted: flush does not wait for an injected delay.
 */
export function countInFlight(): InFlight {
  // Messages in transit towards each end, and notifications' effects running.
  const inTransit = [0, 0];
  let sent = 0;
  let running = 0;
  let closed = false;
  let waiting: (() => void)[] = [];
  const busy = () => !closed && (inTransit[0]! > 0 || inTransit[1]! > 0 || running > 0);
  const changed = () => {
    if (busy()) return;
    const wake = waiting;
    waiting = [];
    for (const resolve of wake) resolve();
  };
  const quiet = () => (busy() ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve());
  // Whether each end listens: the in-memory channel drops what it sends to an end nobody listens on yet (the app's
  // end before its first call), so such a message is not waited for; and one that arrives all the same (the end
  // began to listen meanwhile) does not count as another's arrival.
  const listening = [false, false];
  const end = (transport: Transport, self: 0 | 1): Transport => ({
    send(message) {
      const counted = !closed && listening[1 - self];
      if (counted) {
        inTransit[1 - self]!++;
        sent++;
      }
      // A message that never leaves (a value that cannot be cloned: its call rejects) is not waited for.
      const lost = () => {
        if (counted && inTransit[1 - self]! > 0) inTransit[1 - self]!--;
        changed();
      };
      try {
        const sending = transport.send(message);
        sending?.catch(lost);
        return sending;
      } catch (error) {
        lost();
        throw error;
      }
    },
    listen(receive) {
      listening[self] = true;
      transport.listen((message) => {
        try {
          receive(message);
        } finally {
          if (inTransit[self]! > 0) inTransit[self]!--;
          changed();
        }
      });
    },
    // Either end closes the whole in-memory channel: what is in transit is dropped, and nothing is waited for.
    close() {
      closed = true;
      changed();
      transport.close();
    },
  });

  return {
    pair: ([a, b]) => [end(a, 0), end(b, 1)],
    async run(operation) {
      running++;
      try {
        return await operation();
      } finally {
        running--;
        changed();
      }
    },
    async settled() {
      for (;;) {
        await quiet();
        const mark = sent;
        for (let i = 0; i < TURNS; i++) await Promise.resolve();
        if (sent === mark && !busy()) return;
      }
    },
    close() {
      closed = true;
      changed();
    },
  };
}
