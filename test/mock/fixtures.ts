// Manifests for the mock host's tests: one per auth mode, built from one base so each test changes one thing.
export type Json = any;

const destructiveNote = 'Deletes the poll and every vote; this cannot be undone.';

/** A valid `svc-exchange` manifest with every scope a test needs declared, and three actions (one per floor). */
export function exchangeManifest(): Json {
  return {
    manifest_version: 1,
    id: '0123456789abcdef',
    name: 'Polls',
    version: '1.0.0',
    description: 'Run quick polls in a room.',
    icons: [
      { src: 'icons/192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/512.png', sizes: '512x512', type: 'image/png' },
    ],
    vendor: { id: 'acme', name: 'Acme', contact: 'dev@acme.example' },
    age_rating: '4+',
    entry: 'index.html',
    routes: [{ path: '/', title: 'Home' }],
    permissions: [
      { scope: 'svc.identity.basic', purpose: 'Show your name on your votes.' },
      { scope: 'svc.room.context', purpose: 'Know which room the poll is for.' },
      { scope: 'svc.message.send', purpose: 'Post the poll into the room.' },
      { scope: 'svc.files.read', purpose: 'Import options from a file.' },
      { scope: 'svc.files.write', purpose: 'Export the results as a file.' },
    ],
    network: { connect: ['api.polls.example'] },
    csp: "default-src 'self'; script-src 'self'; object-src 'none'",
    auth: { type: 'svc-exchange', audience: 'polls-backend', scopes: ['polls.read', 'polls.write'] },
    actions: [
      action('list_polls', 'never', false, { type: 'object', properties: {}, additionalProperties: false }),
      action('create_poll', 'if_destructive', false, {
        type: 'object',
        properties: {
          question: { type: 'string', minLength: 1 },
          options: { type: 'array', items: { type: 'string' }, minItems: 2 },
        },
        required: ['question', 'options'],
        additionalProperties: false,
      }),
      action('delete_poll', 'if_destructive', true, {
        type: 'object',
        properties: { poll_id: { type: 'string' } },
        required: ['poll_id'],
        additionalProperties: false,
      }),
      action('close_poll', 'always', false, {
        type: 'object',
        properties: { poll_id: { type: 'string' } },
        required: ['poll_id'],
        additionalProperties: false,
      }),
    ],
  };
}

function action(name: string, confirm: string, destructive: boolean, input_schema: Json): Json {
  return {
    name,
    title: name.replace('_', ' '),
    description: `Runs ${name} on the polls of the current room. ${destructive ? destructiveNote : 'Nothing is deleted.'}`,
    input_schema,
    annotations: { read_only: false, destructive, idempotent: false, open_world: false },
    confirm,
  };
}

/** The same app under auth mode `none`, without actions. */
export function noneManifest(): Json {
  const m = exchangeManifest();
  m.auth = { type: 'none' };
  delete m.actions;
  return m;
}

/** The same app under `external-oauth`. */
export function oauthManifest(): Json {
  const m = exchangeManifest();
  m.auth = {
    type: 'external-oauth',
    issuer: 'https://login.polls.example',
    client_id: 'polls-app',
    scopes: ['openid'],
  };
  return m;
}

/** A room to launch in. */
export const room = { room_id: '!room:example', name: 'Team', is_encrypted: true, member_count: 4 };
