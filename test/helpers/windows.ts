/**
 * A two-window world for bootstrap tests: each fake window delivers a postMessage only when the target origin is
 * its own (as a browser does), with `source` and `origin` set from the sender, and transfers MessagePorts.
 */
export interface FakeWindow {
  origin: string;
  parent: FakeWindow;
  listeners: Set<(event: any) => void>;
  postMessage(data: unknown, targetOrigin: string, transfer?: MessagePort[]): void;
  addEventListener(type: 'message', fn: (event: any) => void): void;
  removeEventListener(type: 'message', fn: (event: any) => void): void;
  /** Delivers a message as if `from` had posted it (for forged frames). */
  receive(from: FakeWindow | null, origin: string, data: unknown, ports?: MessagePort[]): void;
  location: { hash: string };
  sent: { data: unknown; targetOrigin: string }[];
}

export function fakeWindow(origin: string, sender?: () => FakeWindow): FakeWindow {
  const win: FakeWindow = {
    origin,
    parent: undefined as never,
    listeners: new Set(),
    sent: [],
    location: { hash: '' },
    postMessage(data, targetOrigin, transfer = []) {
      const from = sender?.() ?? win;
      from.sent.push({ data, targetOrigin });
      if (targetOrigin !== '*' && targetOrigin !== origin) return; // the browser drops it
      win.receive(from, from.origin, structuredClone(data), transfer);
    },
    addEventListener: (_type, fn) => void win.listeners.add(fn),
    removeEventListener: (_type, fn) => void win.listeners.delete(fn),
    receive(from, senderOrigin, data, ports = []) {
      setTimeout(() => win.listeners.forEach((fn) => fn({ source: from, origin: senderOrigin, data, ports })));
    },
  };
  win.parent = win;
  return win;
}

/**
 * A host page at `hostOrigin` with an iframe at `appOrigin`; `iframe.contentWindow` is the app's window. Each
 * window's postMessage is called by the other one's code, so that is the sender it reports.
 */
export function framedApp(hostOrigin = 'https://host.example', appOrigin = 'https://app.example') {
  let app: FakeWindow;
  const host = fakeWindow(hostOrigin, () => app);
  app = fakeWindow(appOrigin, () => host);
  app.parent = host;
  const iframe = { contentWindow: app } as unknown as HTMLIFrameElement;
  return { host, app, iframe };
}
