import { SCOPE_TO_MANIFEST } from '../../protocol/scopes';
import { WEBHOOK_EVENTS } from '../../server/events';
import type { ChangeRoute, ControlRoutes, DevConfig, DevState } from '../devContract';
import { control } from './api';
import { forgetRefusals, refusedScopes } from './appHost';
import { type Child, copyButton, h } from './dom';
import { scopeInWords } from './scopeInWords';
import { storeUpload } from './storeUpload';

/** Renders a region only when its key changed (see messenger.ts). */
export type Region = (el: HTMLElement, key: unknown, build: () => Child[]) => void;

/** A control route a button calls: one that answers the new state (a change, or reading it again). */
export type ButtonRoute = ChangeRoute | 'GET /__svc/state';
/** The body a route takes, as an argument list (none for a GET). */
export type BodyOf<R extends ButtonRoute> = ControlRoutes[R]['request'] extends undefined
  ? []
  : [ControlRoutes[R]['request']];

/** What the settings' buttons do: plain control calls, and the ones that ask first and explain after. */
export interface SettingsActions {
  /** Runs a control call from a button; a refusal shows as a toast instead of vanishing. */
  act<R extends ButtonRoute>(route: R, ...body: BodyOf<R>): void;
  uninstall(): void;
  deprovision(): void;
  revokeVersion(): void;
  reset(): void;
}

const time = (iso: string | undefined) => (iso ? new Date(iso).toLocaleTimeString() : '');

/**
 * Settings a developer needs to try every path: theme and locale (events reach the app), the person (two tenants),
 * each scope with its state (granted, denied, prompt), install and uninstall, removing the person from the tenant,
 * revoking the version, rotating the signing secret, and a reset to a fresh state.
 */
export function renderSettings(
  el: HTMLElement,
  state: DevState,
  config: DevConfig,
  actions: SettingsActions,
  region: Region,
): void {
  const s = state.settings;
  const user = s.current_user_id;
  const scopes = ((config.manifest.permissions as { scope: string }[] | undefined) ?? []).map((p) => p.scope);
  const granted = state.grants.find((g) => g.user_id === user)?.scopes ?? [];
  const refused = refusedScopes(user);
  const installed = state.installations.some((i) => i.user_id === user && i.installed);
  const me = state.users.find((u) => u.id === user);
  const { act } = actions;
  // Each section renders on its own: a rotation never rebuilds the person <select>, a grant never the theme.
  if (!el.firstChild) el.append(...Array.from({ length: 5 }, () => h('div', {})));
  const [look, person, permissions, installation, admin] = [...el.children] as HTMLElement[];
  region(look!, [s.theme, s.locale], () => [
    h('h2', {}, 'Appearance'),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          'data-testid': 'theme-toggle',
          onclick: () => act('PATCH /__svc/settings', { theme: s.theme === 'light' ? 'dark' : 'light' }),
        },
        `Theme: ${s.theme}`,
      ),
      h(
        'label',
        {},
        'Locale ',
        h(
          'select',
          {
            'data-testid': 'locale',
            onchange: (e) => act('PATCH /__svc/settings', { locale: (e.target as HTMLSelectElement).value }),
          },
          ...['en', 'de', 'fr', 'ja'].map((l) => h('option', { value: l, selected: l === s.locale }, l)),
        ),
      ),
    ),
  ]);
  region(person!, [user, state.users, state.tenants], () => [
    h('h2', {}, 'Person'),
    h(
      'label',
      {},
      'Signed in as ',
      h(
        'select',
        {
          'data-testid': 'user',
          onchange: (e) => act('PATCH /__svc/settings', { current_user_id: (e.target as HTMLSelectElement).value }),
        },
        ...state.users.map((u) =>
          h(
            'option',
            { value: u.id, selected: u.id === user },
            `${u.display_name} (${state.tenants.find((t) => t.id === u.tenant_id)?.name ?? u.tenant_id}${u.deprovisioned ? ', removed' : ''})`,
          ),
        ),
      ),
    ),
    h('div', { class: 'note' }, `app_user_id ${me?.app_user_id} · tenant_id ${me?.tenant_id}`),
  ]);
  region(permissions!, [user, scopes, granted, [...refused]], () => [
    h('h2', {}, 'Permissions'),
    scopes.length ? null : h('p', { class: 'note' }, 'The manifest asks for no permission.'),
    ...scopes.map((scope) => {
      const bridgeScope = Object.entries(SCOPE_TO_MANIFEST).find(([, m]) => m === scope)?.[0] ?? scope;
      const decision = granted.includes(scope) ? 'granted' : refused.has(bridgeScope) ? 'denied' : 'prompt';
      return h(
        'div',
        { class: 'row', 'data-testid': `permission-${scope}`, 'data-state': decision },
        h('span', { class: 'grow' }, scopeInWords(scope), h('div', { class: 'note' }, scope)),
        h('span', { class: `chip ${decision}` }, decision),
        decision === 'granted'
          ? h(
              'button',
              {
                'data-testid': `revoke-${scope}`,
                'aria-label': `Revoke ${scopeInWords(scope)}`,
                onclick: () => act('POST /__svc/revoke', { user_id: user, scope }),
              },
              'Revoke',
            )
          : h(
              'button',
              {
                'data-testid': `grant-${scope}`,
                'aria-label': `Grant ${scopeInWords(scope)}`,
                onclick: () => act('POST /__svc/grant', { user_id: user, scope }),
              },
              'Grant',
            ),
      );
    }),
    h(
      'button',
      {
        onclick: () => {
          forgetRefusals(user);
          act('GET /__svc/state');
        },
      },
      'Ask again for refused scopes',
    ),
  ]);
  region(installation!, [user, installed], () => [
    h('h2', {}, 'Installation'),
    h(
      'div',
      { class: 'row' },
      installed
        ? h('button', { 'data-testid': 'uninstall', onclick: () => actions.uninstall() }, 'Uninstall…')
        : h(
            'button',
            { 'data-testid': 'install', onclick: () => act('POST /__svc/install', { user_id: user }) },
            'Install',
          ),
      h(
        'button',
        { class: 'danger', 'data-testid': 'deprovision', onclick: () => actions.deprovision() },
        'Remove from tenant…',
      ),
    ),
  ]);
  region(admin!, [state.version_revoked, state.version, state.secret, config.statePath, state.store], () => [
    h('h2', {}, 'Administrator'),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          class: 'danger',
          'data-testid': 'revoke-version',
          disabled: state.version_revoked,
          onclick: () => actions.revokeVersion(),
        },
        state.version_revoked ? `Version ${state.version} revoked` : 'Revoke this version…',
      ),
      h(
        'button',
        { 'data-testid': 'rotate-secret', onclick: () => act('POST /__svc/rotate-secret', {}) },
        'Rotate signing secret',
      ),
    ),
    h(
      'p',
      { class: 'note', 'data-testid': 'secret-note' },
      state.secret.previous_valid_until && Date.parse(state.secret.previous_valid_until) > Date.now()
        ? `Secret generation ${state.secret.generation}: webhooks are signed with the new secret only from now on, and the previous one still verifies server API calls until ${time(state.secret.previous_valid_until)}. Your backend must verify webhooks with both (createWebhookHandler({ secrets: [current, previous] })) and sign its server API calls with the new one; npm start's backend reads both from the platform (signingSecrets), and svc dev --backend-env rewrites the file with SVC_SIGNING_SECRET and SVC_SIGNING_SECRET_PREVIOUS.`
        : `Secret generation ${state.secret.generation}. Rotating makes a new secret that signs webhooks at once, while the previous one keeps verifying for an hour: the overlap in which your backend moves to the new one.`,
    ),
    ...storeUpload(state),
    h('h2', {}, 'State'),
    h(
      'p',
      { class: 'note', 'data-testid': 'state-where' },
      config.statePath
        ? `Saved after every change in ${config.statePath}; svc dev --reset or this button starts afresh.`
        : 'In memory only (svc dev --state <file> keeps it between runs).',
    ),
    h('button', { class: 'danger', 'data-testid': 'reset', onclick: () => actions.reset() }, 'Reset to a fresh state…'),
  ]);
}

/** Which deliveries are opened and the event filter: kept across re-renders of the inspector. */
const inspector = { open: new Set<string>(), event: '' };

/**
 * The webhook inspector: each delivery with the person and scope it is about, its target URL, the headers as sent
 * (signature cut to its prefix), the payload, and each attempt's status, timing and response body (a duplicate
 * says so); "send again" makes a new delivery linked to the original. A filter by event.
 */
export function renderDeliveries(el: HTMLElement, state: DevState, act: SettingsActions['act'], region: Region): void {
  if (!el.firstChild) {
    const filter = h('select', { 'aria-label': 'Filter by event', 'data-testid': 'delivery-filter' });
    filter.addEventListener('change', () => {
      inspector.event = filter.value;
      applyEventFilter(el);
    });
    // A test event: the contract's example about the person using the messenger now, sent like any other.
    const test = h(
      'select',
      { 'data-testid': 'test-event' },
      ...WEBHOOK_EVENTS.map((e) => h('option', { value: e }, e)),
    );
    el.append(
      h('div', { class: 'row' }, h('label', {}, 'Event ', filter)),
      h(
        'div',
        { class: 'row' },
        h('label', {}, 'Test event ', test),
        h(
          'button',
          {
            'data-testid': 'send-test-event',
            onclick: () => act('POST /__svc/deliveries/test', { event: test.value }),
          },
          'Send a test event',
        ),
      ),
      h('div', { class: 'list' }),
    );
  }
  const filter = el.querySelector('select')!;
  const events = [...new Set(state.deliveries.map((d) => d.event))].sort();
  const options = ['', ...events];
  if ([...filter.options].map((o) => o.value).join() !== options.join())
    filter.replaceChildren(
      ...options.map((e) => h('option', { value: e, selected: e === inspector.event }, e || 'All events')),
    );
  const shown = state.deliveries;
  const who = (id: unknown) => state.users.find((u) => u.app_user_id === id);
  const short = (id: string) => id.slice(0, 8);
  region(el.querySelector<HTMLElement>('.list')!, shown, () => [
    shown.length ? null : h('p', { class: 'note' }, 'No webhook yet (start svc dev with --webhooks <url>).'),
    ...shown
      .slice()
      .reverse()
      .map((d) => {
        const person = who(d.payload.app_user_id);
        const last = d.attempts.at(-1);
        const duplicate = last?.response_body?.includes('"duplicate":true');
        const details = h(
          'details',
          {
            class: 'action',
            id: `delivery-${d.id}`,
            'data-testid': 'delivery',
            'data-event': d.event,
            'data-state': d.state,
            open: inspector.open.has(d.id),
          },
          h(
            'summary',
            {},
            h('strong', {}, d.event),
            ' ',
            h('span', { class: d.state === 'delivered' ? 'ok' : d.state === 'failed' ? 'err' : 'pending' }, d.state),
            last ? ` · ${last.status ?? last.error}` : '',
            duplicate ? h('span', { class: 'chip', 'data-testid': 'duplicate' }, 'duplicate') : null,
            h(
              'div',
              { class: 'note' },
              `${person ? `${person.display_name} (${person.app_user_id}, ${person.tenant_id})` : `tenant ${String(d.payload.tenant_id ?? '')}`}${d.payload.scope ? ` · ${scopeInWords(String(d.payload.scope))} (${String(d.payload.scope)})` : ''} · ${short(d.id)}`,
            ),
          ),
          d.resend_of
            ? h(
                'p',
                { class: 'note', 'data-testid': 'resend-of' },
                'Sent again from ',
                h('a', { href: `#delivery-${d.resend_of}` }, short(d.resend_of)),
                duplicate
                  ? ': the backend answered that it had handled it already (same body, same idempotency key).'
                  : '.',
              )
            : null,
          h('div', { class: 'note' }, `POST ${d.url}`),
          jsonBlock('Headers', d.headers ?? {}),
          jsonBlock('Payload', d.payload),
          h('strong', {}, 'Attempts'),
          ...d.attempts.map((a, i) =>
            h(
              'div',
              { class: 'attempt', 'data-testid': 'attempt' },
              h(
                'div',
                { class: a.status && a.status < 300 ? 'ok' : 'err' },
                `#${i + 1} ${time(a.at)} · ${a.status ?? a.error} · ${a.duration_ms} ms`,
              ),
              a.response_body ? h('pre', { 'data-testid': 'response-body' }, a.response_body) : null,
              a.status === 401 && inOverlap(state, a.at)
                ? h(
                    'p',
                    { class: 'note', 'data-testid': 'overlap-401' },
                    'Refused during a secret rotation: this webhook is signed with the new secret only, so your backend may hold only the old secret: give it both (SVC_SIGNING_SECRET and SVC_SIGNING_SECRET_PREVIOUS; createWebhookHandler({ secrets: [current, previous] })).',
                  )
                : null,
            ),
          ),
          d.next_attempt_at ? h('div', { class: 'pending' }, `Next attempt at ${time(d.next_attempt_at)}`) : null,
          h(
            'button',
            { 'data-testid': 'resend', onclick: () => act('POST /__svc/deliveries/resend', { id: d.id }) },
            'Send again',
          ),
        );
        details.addEventListener('toggle', () => {
          if (details.open) inspector.open.add(d.id);
          else inspector.open.delete(d.id);
        });
        return details;
      }),
  ]);
  applyEventFilter(el);
}

/** Whether `at` falls in a rotation's overlap (the previous secret still verified then). */
function inOverlap(state: DevState, at: string): boolean {
  const until = state.secret.previous_valid_until;
  return until !== undefined && Date.parse(at) < Date.parse(until);
}

/** Shows the deliveries of the chosen event only. */
function applyEventFilter(el: HTMLElement): void {
  for (const d of el.querySelectorAll<HTMLElement>('[data-testid=delivery]'))
    d.hidden = !!inspector.event && d.dataset.event !== inspector.event;
}

/** A titled, indented JSON block with a copy button. */
function jsonBlock(title: string, value: unknown) {
  const text = JSON.stringify(value, null, 2);
  return h(
    'div',
    { class: 'json' },
    h('div', { class: 'row' }, h('strong', { class: 'grow' }, title), copyButton(text, `Copy ${title.toLowerCase()}`)),
    h('pre', { 'data-testid': `delivery-${title.toLowerCase()}` }, text),
  );
}

/** Requests the package's policies blocked, each once, with what to change. */
export function renderBlocked(el: HTMLElement, blocked: DevConfig['blocked'], region: Region): void {
  const unique = [...new Map(blocked.map((b) => [`${b.directive} ${b.blocked}`, b])).values()];
  region(el, unique, () => [
    unique.length ? null : h('p', { class: 'note' }, 'No request was blocked.'),
    ...unique.map((b) =>
      h(
        'div',
        { class: 'action', 'data-testid': 'blocked' },
        h('strong', {}, b.blocked),
        h('div', {}, b.advice),
        h('div', { class: 'note' }, `${b.directive} · ${time(b.at)}`),
      ),
    ),
  ]);
}

/** The notification tray: opening one marks it read and opens its deep link in the app. */
export function renderNotifications(
  el: HTMLElement,
  state: DevState,
  open: (deepLink: string) => void,
  region: Region,
): void {
  const mine = state.notifications.filter((n) => n.user_id === state.settings.current_user_id).reverse();
  region(el, mine, () => [
    mine.length ? null : h('p', { class: 'note' }, 'No notification.'),
    ...mine.map((n) =>
      h(
        'div',
        { class: `action ${n.read ? '' : 'unread'}`, 'data-testid': 'notification' },
        h('strong', {}, n.read ? n.title : `● ${n.title}`),
        h('p', {}, n.body),
        h(
          'button',
          {
            onclick: () => {
              void control('POST /__svc/notifications/read', { id: n.id });
              open(n.deep_link);
            },
          },
          `Open ${n.deep_link}`,
        ),
      ),
    ),
  ]);
}
