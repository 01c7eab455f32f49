import type { HostEffects } from '../host/types';
import type { Manifest } from '../manifest';
import { manifestFacts } from '../manifest/manifestFacts';
import type { Identity, SvcFile } from '../protocol/types';
import type { MockRecords } from './MockState';
import { mintMockToken, tokenId } from './mockToken';
import type { MockFile, MockHostOptions } from './types';

/** The person's files as the bridge returns them. */
function toSvcFiles(files: MockFile[] = []): SvcFile[] {
  return files.map((f, i) => {
    const type = f.type ?? 'application/octet-stream';
    const blob = f.content instanceof Blob ? f.content : new Blob([f.content ?? ''], { type });
    return { file_id: f.file_id ?? `file-${i + 1}`, name: f.name, type, size: blob.size, blob };
  });
}

/**
 * The mock's platform: what a real host's platform would do once the rules (`createHost` with a manifest) let a
 * call through, played in memory and recorded for assertions. No rule lives here.
 */
export function mockEffects({
  manifest,
  options,
  identity,
  records: r,
}: {
  manifest: Manifest;
  options: MockHostOptions;
  identity: Identity;
  /** Where the effects record what the app did (`host.ui`, `host.sent`, ...). */
  records: MockRecords;
}) {
  const files = toSvcFiles(options.files);
  const auth = manifest.auth;
  const facts = manifestFacts(manifest);
  return {
    'identity.get': () => identity,
    'auth.getToken': (_params, { acting }) => {
      const lifetime = options.tokenLifetime ?? 300;
      const iat = Math.floor(Date.now() / 1000);
      const agent = acting?.invoked_by === 'agent' ? acting.agent_id : undefined;
      // Minted afresh on every call (new jti): the platform's specification says never to cache a token, so the mock never does.
      const access_token = mintMockToken({
        sub: identity.app_user_id,
        aud: facts.audience,
        iss: auth.type === 'external-oauth' ? auth.issuer : (options.issuer ?? 'https://auth.svc.mock/realms/mock'),
        iat,
        exp: iat + lifetime,
        jti: tokenId(),
        scope: facts.tokenScopes.join(' '),
        tenant_id: identity.tenant_id,
        ...(agent ? { act: { sub: agent } } : {}),
      });
      return { access_token, expires_in: lifetime };
    },
    'room.current': () => options.room ?? null,
    'message.send': (message) => {
      const event_id = `$mock-event-${++r.seq}`;
      r.sent.push({ ...message, event_id });
      return { event_id };
    },
    'files.pick': () => files,
    'files.save': ({ name, blob }) => {
      const file_id = `saved-${++r.seq}`;
      r.saved.push({ file_id, name, blob });
      return { file_id };
    },
    'actions.progress': ({ message }, { invocation }) => void r.progress.push({ action: invocation!.name, message }),
    'ui.setTitle': ({ title }) => {
      r.ui.title = title;
      r.ui.titles.push(title);
    },
    'ui.toast': ({ message, kind }) => void r.ui.toasts.push({ message, kind: kind ?? 'info' }),
    'ui.openExternal': ({ url }) => void r.ui.opened.push(url),
    'ui.close': () => void r.ui.closed++,
    'ui.share': (request) => void r.ui.shares.push(request),
    // Every operation with an effect is here: one that gains an effect and is missing fails to compile.
  } satisfies HostEffects;
}
