import { createSvc, type SvcOptions } from '../../src/index';
import {
  createHost,
  createMemoryPair,
  portTransport,
  type HostHandlers,
  type HostOptions,
  type Transport,
} from '../../src/host/index';

/** The values every operation answers with in these tests. */
export const answers = {
  identity: { app_user_id: 'u-1', tenant_id: 't-1', locale: 'en-GB', display_name: 'Ada' },
  token: { access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl', expires_in: 300 },
  room: { room_id: '!r:example.org', name: 'Ops', is_encrypted: true, member_count: 4 },
};

/** Handlers for every operation: each records its params and answers like a host would. */
export function fullHandlers(seen: { method: string; params: unknown }[]): HostHandlers {
  const record =
    <T>(method: string, value: T) =>
    (params: unknown) => {
      seen.push({ method, params });
      return value;
    };
  return {
    'identity.get': record('identity.get', answers.identity),
    'auth.getToken': record('auth.getToken', answers.token),
    'auth.signIn': record('auth.signIn', undefined),
    'auth.signOut': record('auth.signOut', undefined),
    'auth.state': record('auth.state', 'signed-in' as const),
    'room.current': record('room.current', answers.room),
    'message.send': record('message.send', { event_id: '$e1' }),
    'files.pick': (params) => {
      seen.push({ method: 'files.pick', params });
      return [
        { file_id: 'f1', name: 'a.txt', type: 'text/plain', size: 2, blob: new Blob(['hi'], { type: 'text/plain' }) },
      ];
    },
    'files.save': record('files.save', { file_id: 'f2' }),
    'actions.elicit': (params) => {
      seen.push({ method: 'actions.elicit', params });
      return { answer: 42 };
    },
    'actions.progress': record('actions.progress', undefined),
    'ui.setTitle': record('ui.setTitle', undefined),
    'ui.toast': record('ui.toast', undefined),
    'ui.confirm': record('ui.confirm', true),
    'ui.openExternal': record('ui.openExternal', undefined),
    'ui.close': record('ui.close', undefined),
    'ui.share': record('ui.share', undefined),
    'storage.get': record('storage.get', { n: 1 }),
    'storage.set': record('storage.set', undefined),
    'storage.remove': record('storage.remove', undefined),
    'storage.clear': record('storage.clear', undefined),
    'permissions.query': record('permissions.query', 'prompt' as const),
    'permissions.request': record('permissions.request', 'granted' as const),
  };
}

/** The transports the integration suites run over. */
export const transports = {
  /** The in-memory pair: structured-clones every message. */
  memory: (): [Transport, Transport] => createMemoryPair(),
  /** A real MessageChannel (Node's), as a browser host would hand over. */
  channel: (): [Transport, Transport] => {
    const { port1, port2 } = new MessageChannel();
    return [portTransport(port1), portTransport(port2)];
  },
};

/** A connected client and host; `seen` records what the host's handlers received, `calls` every inbound call. */
export function connect(
  kind: keyof typeof transports = 'memory',
  options: { handlers?: HostHandlers; host?: Partial<HostOptions>; client?: SvcOptions } = {},
) {
  const [appEnd, hostEnd] = transports[kind]();
  const seen: { method: string; params: unknown }[] = [];
  const calls: { method: string; params: unknown }[] = [];
  const host = createHost({
    transport: hostEnd,
    app: { id: '0123456789abcdef', version: '1.2.3', locale: 'en-GB', theme: 'light', launch_params: { poll: '7' } },
    handlers: options.handlers ?? fullHandlers(seen),
    onCall: (call) => calls.push(call),
    ...options.host,
  });
  const client = createSvc({ transport: appEnd, snapshot: host.snapshot, ...options.client });
  return {
    svc: client.svc,
    client,
    host,
    seen,
    calls,
    hostEnd,
    appEnd,
    close: () => {
      client.close();
      host.close();
    },
  };
}

/** Lets queued messages (microtasks, port tasks) be delivered. */
export const settle = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));
