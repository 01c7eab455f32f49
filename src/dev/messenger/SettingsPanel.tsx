import { SCOPE_TO_MANIFEST } from '../../protocol/scopes';
import type { DevSettings } from '../devContract';
import { forgetRefusals, refusedScopes } from './appHost';
import type { Messenger } from './Messenger';
import { scopeInWords } from './scopeInWords';
import { systemColorScheme } from './shownTheme';
import { StoreUpload } from './StoreUpload';
import { toast } from './toasts';

/** A time of day as the person's clock shows it. */
export const time = (iso: string | undefined) => (iso ? new Date(iso).toLocaleTimeString() : '');
const selected = (event: Event) => (event.currentTarget as HTMLSelectElement).value;

/** The selects an arrow key stepped through, closed: their choice waits for Enter or for the focus to leave. */
const stepping = new WeakSet<EventTarget>();

/**
 * A select's handlers that apply its choice on purpose: picked from its list, Enter, or leaving it. Not at each arrow
 * key on the closed select (Chromium changes the value at each), which switched person, and relaunched the app, at
 * each step on the way to the one wanted.
 */
function chosenOnPurpose(apply: (value: string) => void) {
  const done = (event: Event) => {
    stepping.delete(event.currentTarget!);
    apply(selected(event));
  };
  return {
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Enter') done(event);
      else if (!event.altKey && /^(Arrow|Home$|End$|Page)/.test(event.key)) stepping.add(event.currentTarget!);
    },
    onChange: (event: Event) => {
      if (!stepping.has(event.currentTarget!)) apply(selected(event));
    },
    onBlur: (event: Event) => {
      if (stepping.has(event.currentTarget!)) done(event);
    },
  };
}

/** Theme (the system's colour scheme by default) and locale: the events reach the app. */
function Appearance({ m }: { m: Messenger }) {
  const s = m.store.slices.settings.value;
  return (
    <div>
      <h2>Appearance</h2>
      <div class="row">
        <label>
          {'Theme '}
          <select
            data-testid="theme"
            value={s.theme}
            {...chosenOnPurpose((theme) => m.act('PATCH /__svc/settings', { theme: theme as DevSettings['theme'] }))}
          >
            <option value="system">{`System (${systemColorScheme.value})`}</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label>
          {'Locale '}
          <select
            data-testid="locale"
            value={s.locale}
            {...chosenOnPurpose((locale) => m.act('PATCH /__svc/settings', { locale }))}
          >
            {['en', 'de', 'fr', 'ja'].map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

/** The person on screen, among the two tenants' people. */
function Person({ m }: { m: Messenger }) {
  const users = m.store.slices.users.value;
  const tenants = m.store.slices.tenants.value;
  const me = m.me.value;
  return (
    <div>
      <h2>Person</h2>
      <label>
        {'Signed in as '}
        <select
          data-testid="user"
          value={me?.id}
          {...chosenOnPurpose((id) => m.act('PATCH /__svc/settings', { current_user_id: id }))}
        >
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {`${u.display_name} (${tenants.find((t) => t.id === u.tenant_id)?.name ?? u.tenant_id}${u.deprovisioned ? ', removed' : ''})`}
            </option>
          ))}
        </select>
      </label>
      <div class="note">{`app_user_id ${me?.app_user_id} · tenant_id ${me?.tenant_id}`}</div>
    </div>
  );
}

/**
 * Each declared scope with its state (granted, denied, prompt) and the button that changes it; `svc.storage`, which
 * needs no request (declared so the person sees it at install), says so, with no button.
 */
function Permissions({ m }: { m: Messenger }) {
  const user = m.store.slices.settings.value.current_user_id;
  const scopes = (m.manifest.permissions ?? []).map((p) => p.scope);
  const granted = m.store.slices.grants.value.find((g) => g.user_id === user)?.scopes ?? [];
  const refused = refusedScopes(user);
  return (
    <div>
      <h2>Permissions</h2>
      {scopes.length ? null : <p class="note">The manifest asks for no permission.</p>}
      {scopes.map((scope) => {
        // Declared so the person sees it at install, svc.storage is used without asking: no state to change.
        const asks = scope !== 'svc.storage';
        const bridgeScope = Object.entries(SCOPE_TO_MANIFEST).find(([, s]) => s === scope)?.[0] ?? scope;
        const decision = !asks
          ? 'no-request'
          : granted.includes(scope)
            ? 'granted'
            : refused.has(bridgeScope)
              ? 'denied'
              : 'prompt';
        const [verb, route] =
          decision === 'granted'
            ? (['Revoke', 'POST /__svc/revoke'] as const)
            : (['Grant', 'POST /__svc/grant'] as const);
        return (
          <div key={scope} class="row" data-testid={`permission-${scope}`} data-state={decision}>
            <span class="grow">
              {scopeInWords(scope)}
              <div class="note">{scope}</div>
            </span>
            <span class={`chip ${asks ? decision : 'granted'}`}>{asks ? decision : 'needs no request'}</span>
            {asks ? (
              <button
                type="button"
                data-testid={`${verb.toLowerCase()}-${scope}`}
                aria-label={`${verb} ${scopeInWords(scope)}`}
                onClick={() => m.act(route, { user_id: user, scope })}
              >
                {verb}
              </button>
            ) : null}
          </div>
        );
      })}
      <button
        type="button"
        onClick={() => {
          forgetRefusals(user);
          void m.act('GET /__svc/state');
        }}
      >
        Ask again for refused scopes
      </button>
    </div>
  );
}

/** Install and uninstall, and removing the person from the tenant. */
function Installation({ m }: { m: Messenger }) {
  const user = m.store.slices.settings.value.current_user_id;
  const installed = m.store.slices.installations.value.some((i) => i.user_id === user && i.installed);
  return (
    <div>
      <h2>Installation</h2>
      <div class="row">
        {installed ? (
          <button type="button" data-testid="uninstall" onClick={() => m.settings.uninstall()}>
            Uninstall…
          </button>
        ) : (
          <button type="button" data-testid="install" onClick={() => m.act('POST /__svc/install', { user_id: user })}>
            Install
          </button>
        )}
        <button type="button" class="danger" data-testid="deprovision" onClick={() => m.settings.deprovision()}>
          Remove from tenant…
        </button>
      </div>
    </div>
  );
}

/** The signing secret's generation, and during a rotation's overlap what the backend must do. */
function secretNote(secret: Messenger['store']['slices']['secret']['value']): string {
  return secret.previous_valid_until && Date.parse(secret.previous_valid_until) > Date.now()
    ? `Secret generation ${secret.generation}: webhooks are signed with the new secret only from now on, and the previous one still verifies server API calls until ${time(secret.previous_valid_until)}. Your backend must verify webhooks with both (createWebhookHandler({ secrets: [current, previous] })) and sign its server API calls with the new one; npm start's backend reads both from the platform (signingSecrets), and svc dev --backend-env rewrites the file with SVC_SIGNING_SECRET and SVC_SIGNING_SECRET_PREVIOUS.`
    : `Secret generation ${secret.generation}. Rotating makes a new secret that signs webhooks at once, while the previous one keeps verifying for an hour: the overlap in which your backend moves to the new one.`;
}

/** The administrator's part: revoke the version, rotate the secret, the store, and where the state lives. */
function Administrator({ m }: { m: Messenger }) {
  const revoked = m.store.slices.version_revoked.value;
  const version = m.store.slices.version.value;
  const statePath = m.config.statePath;
  return (
    <div>
      <h2>Administrator</h2>
      <div class="row">
        <button
          type="button"
          class="danger"
          data-testid="revoke-version"
          // Not `disabled`: the focus the sheet gives back to it would fall to the page's body once it is revoked.
          aria-disabled={revoked}
          onClick={() => {
            if (!revoked) void m.settings.revokeVersion();
          }}
        >
          {revoked ? `Version ${version} revoked` : 'Revoke this version…'}
        </button>
        <button
          type="button"
          data-testid="rotate-secret"
          onClick={() =>
            void m.act('POST /__svc/rotate-secret', {}).then((next) => {
              if (next) toast(`Rotated the signing secret: generation ${next.secret.generation}.`, 'success');
            })
          }
        >
          Rotate signing secret
        </button>
      </div>
      <p class="note" data-testid="secret-note">
        {secretNote(m.store.slices.secret.value)}
      </p>
      <StoreUpload m={m} />
      <h2>State</h2>
      <p class="note" data-testid="state-where">
        {statePath
          ? `Saved after every change in ${statePath}; svc dev --reset or this button starts afresh.`
          : 'In memory only (svc dev --state <file> keeps it between runs).'}
      </p>
      <button type="button" class="danger" data-testid="reset" onClick={() => m.settings.reset()}>
        Reset to a fresh state…
      </button>
    </div>
  );
}

/**
 * Settings a developer needs to try every path: theme and locale (events reach the app), the person (two tenants),
 * each scope with its state (granted, denied, prompt), install and uninstall, removing the person from the tenant,
 * revoking the version, rotating the signing secret, and a reset to a fresh state. Each section renders on its own:
 * a rotation never rebuilds the person `<select>`, a grant never the theme.
 */
export function SettingsPanel({ m }: { m: Messenger }) {
  return (
    <div data-testid="settings">
      <Appearance m={m} />
      <Person m={m} />
      <Permissions m={m} />
      <Installation m={m} />
      <Administrator m={m} />
    </div>
  );
}
