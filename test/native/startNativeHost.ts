// Drives a WebKitGTK WebView host from a test: test/native/webkitHost.py (the project's test host) or
// test/native/protocolHost.py (written from PROTOCOL.md alone). Starts it under Xvfb, relays the test host's frames
// to a transport that `createHost` can use (as a native app relays WKWebView messages to its host code), and
// evaluates functions in the page.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { nativeTransport, type Transport } from '../../src/host/index';
import { startXvfb } from '../browser/engines/launchEngine.mjs';

const root = resolve(import.meta.dirname, '../..');

interface NativeEvent {
  event: string;
  [key: string]: any;
}

/** A running WebKitGTK host. */
export interface NativeHost {
  /** The host's end of the bridge, for `createHost({ transport })` (the test host only). */
  transport: Transport;
  /** Every event the host printed, in order. */
  events: NativeEvent[];
  /** Launches the app at `url` (a new secret) and resolves once it finished loading. */
  load(url: string): Promise<void>;
  /** Reloads the page and resolves once it finished loading. */
  reload(): Promise<void>;
  /** Runs `fn(arg)` in the page's top frame and resolves its (awaited, JSON) value. */
  evaluate<T = any>(fn: string | ((arg: any) => unknown), arg?: unknown): Promise<T>;
  /** Has the protocol host invoke the app's action `name`; resolves its `invoked` event. */
  invoke(name: string, input: unknown): Promise<NativeEvent>;
  /** Resolves the first event, from now or already seen after `from`, that `match` accepts. */
  next(match: (e: NativeEvent) => boolean, from?: number): Promise<NativeEvent>;
  stop(): Promise<void>;
}

/**
 * Starts a WebKitGTK host with `snapshot` injected: `'test'` is the project's host (webkitHost.py), which relays
 * the frames that carry the launch's secret to `transport`; `'protocol'` is the host written from PROTOCOL.md alone
 * (protocolHost.py), which answers by itself. For the test host, `secretCheck: false` takes any envelope's frame
 * (to show why the check is required) and `secret: false` injects no secret (the adapter must refuse).
 */
export async function startNativeHost({
  snapshot,
  host = 'test',
  secretCheck = true,
  secret = true,
}: {
  snapshot: unknown;
  host?: 'test' | 'protocol';
  secretCheck?: boolean;
  secret?: boolean;
}): Promise<NativeHost> {
  const xvfb = process.env.DISPLAY ? undefined : await startXvfb();
  const argv = [
    resolve(root, host === 'test' ? 'test/native/webkitHost.py' : 'test/native/protocolHost.py'),
    '--snapshot',
    JSON.stringify(snapshot),
    '--adapter',
    resolve(root, 'dist/native-adapter.js'),
    ...(secretCheck ? [] : ['--no-secret-check']),
    ...(secret ? [] : ['--no-secret']),
  ];
  // Debian's Python, whose PyGObject has the WebKit2 4.1 bindings (a pyenv python on PATH has none).
  const child: ChildProcessWithoutNullStreams = spawn('/usr/bin/python3', argv, {
    env: { ...process.env, ...(xvfb && { DISPLAY: xvfb.display }), WEBKIT_DISABLE_COMPOSITING_MODE: '1' },
  });
  const events: NativeEvent[] = [];
  const waiters = new Set<{ match: (e: NativeEvent) => boolean; done: (e: NativeEvent) => void }>();
  const scope: Record<string, unknown> = {};
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event: NativeEvent;
    try {
      event = JSON.parse(line);
    } catch {
      return;
    }
    events.push(event);
    if (event.event === 'message') (scope.__svc_receive as ((json: string) => void) | undefined)?.(event.json);
    for (const w of waiters)
      if (w.match(event)) {
        waiters.delete(w);
        w.done(event);
      }
  });
  const send = (command: object) => child.stdin.write(`${JSON.stringify(command)}\n`);
  const next = (match: (e: NativeEvent) => boolean, from = events.length) =>
    new Promise<NativeEvent>((done, fail) => {
      const seen = events.slice(from).find(match);
      if (seen) return done(seen);
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        fail(new Error(`the WebKitGTK host did not report the awaited event; its stderr: ${stderr}`));
      }, 20_000);
      const waiter = {
        match,
        done: (e: NativeEvent) => {
          clearTimeout(timer);
          done(e);
        },
      };
      waiters.add(waiter);
    });
  child.once('exit', (code) => {
    for (const w of waiters) w.done({ event: 'exit', code });
  });
  await next((e) => e.event === 'ready' || e.event === 'exit');
  if (child.exitCode != null) throw new Error(`the WebKitGTK host exited at start: ${stderr}`);
  let ids = 0;
  return {
    transport: nativeTransport((json) => send({ cmd: 'deliver', json }), scope),
    events,
    async load(url) {
      const from = events.length;
      send({ cmd: 'load', url });
      await next((e) => e.event === 'loaded', from);
    },
    async reload() {
      const from = events.length;
      send({ cmd: 'reload' });
      await next((e) => e.event === 'loaded', from);
    },
    async evaluate(fn, arg) {
      const id = ++ids;
      const from = events.length;
      send({ cmd: 'eval', id, fn: String(fn), arg: arg ?? null });
      const r = await next((e) => e.event === 'eval' && e.id === id, from);
      if (!r.ok) throw new Error(`in the page: ${r.error}`);
      return r.value === '__svc_undefined__' ? undefined : r.value;
    },
    async invoke(name, input) {
      const id = ++ids;
      const from = events.length;
      send({ cmd: 'invoke', id, name, input });
      return next((e) => e.event === 'invoked' && e.id === id, from);
    },
    next,
    async stop() {
      send({ cmd: 'quit' });
      await new Promise((done) => {
        if (child.exitCode != null) return done(undefined);
        const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(kill);
          done(undefined);
        });
      });
      xvfb?.stop();
    },
  };
}
