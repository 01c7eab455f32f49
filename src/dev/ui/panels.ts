import type { ChangeRoute, ControlRoutes, DevConfig, DevState } from '../devContract';
import { control } from './api';
import { forgetRefusals } from './appHost';
import { fill, h } from './dom';

/** Runs a control call from a button; a refusal shows as a toast instead of vanishing. */
type Act = <R extends ChangeRoute>(route: R, body: ControlRoutes[R]['request']) => void;

/**
 * Settings a developer needs to try every path: theme and locale (events reach the app), the person (two people in
 * a tenant), each scope granted or revoked, install and uninstall, removing the person from the tenant, revoking
 * the version, rotating the signing secret.
 */
export function renderSettings(el: HTMLElement, state: DevState, config: DevConfig, act: Act): void {
  const s = state.settings;
  const user = s.current_user_id;
  const scopes = ((config.manifest.permissions as { scope: string }[] | undefined) ?? []).map((p) => p.scope);
  const granted = state.grants.find((g) => g.user_id == user)?.scopes ?? [];
  const installed = state.installations.some((i) => i.user_id == user && i.installed);
  const me = state.users.find((u) => u.id == user);
  fill(
    el,
    h('h2', {}, 'Appearance'),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          'data-testid': 'theme-toggle',
          onclick: () => act('PATCH /__svc/settings', { theme: s.theme == 'light' ? 'dark' : 'light' }),
        },
        `Theme: ${s.theme}`,
      ),
      h(
        'select',
        {
          'data-testid': 'locale',
          onchange: (e) => act('PATCH /__svc/settings', { locale: (e.target as HTMLSelectElement).value }),
        },
        ...['en', 'de', 'fr', 'ja'].map((l) => h('option', { value: l, selected: l == s.locale }, l)),
      ),
    ),
    h('h2', {}, 'Person'),
    h(
      'select',
      {
        'data-testid': 'user',
        onchange: (e) => act('PATCH /__svc/settings', { current_user_id: (e.target as HTMLSelectElement).value }),
      },
      ...state.users.map((u) =>
        h(
          'option',
          { value: u.id, selected: u.id == user },
          `${u.display_name} (${u.tenant_id}${u.deprovisioned ? ', removed' : ''})`,
        ),
      ),
    ),
    h('div', { class: 'note' }, `app_user_id ${me?.app_user_id}`),
    h('h2', {}, 'Permissions'),
    ...scopes.map((scope) =>
      h(
        'div',
        { class: 'row' },
        h('span', { style: 'flex:1' }, scope),
        granted.includes(scope)
          ? h(
              'button',
              { 'data-testid': `revoke-${scope}`, onclick: () => act('POST /__svc/revoke', { user_id: user, scope }) },
              'Revoke',
            )
          : h(
              'button',
              { 'data-testid': `grant-${scope}`, onclick: () => act('POST /__svc/grant', { user_id: user, scope }) },
              'Grant',
            ),
      ),
    ),
    h('button', { onclick: () => forgetRefusals(user) }, 'Ask again for refused scopes'),
    h('h2', {}, 'Installation'),
    h(
      'div',
      { class: 'row' },
      installed
        ? h(
            'button',
            { 'data-testid': 'uninstall', onclick: () => act('POST /__svc/uninstall', { user_id: user }) },
            'Uninstall',
          )
        : h(
            'button',
            { 'data-testid': 'install', onclick: () => act('POST /__svc/install', { user_id: user }) },
            'Install',
          ),
      h(
        'button',
        {
          class: 'danger',
          'data-testid': 'deprovision',
          onclick: () => act('POST /__svc/deprovision', { user_id: user }),
        },
        'Remove from tenant',
      ),
    ),
    h('h2', {}, 'Administrator'),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          class: 'danger',
          'data-testid': 'revoke-version',
          onclick: () => act('POST /__svc/revoke-version', { reason: 'revoked in svc dev' }),
        },
        state.version_revoked ? 'Version revoked' : 'Revoke this version',
      ),
      h(
        'button',
        { 'data-testid': 'rotate-secret', onclick: () => act('POST /__svc/rotate-secret', {}) },
        `Rotate secret (gen ${state.secret.generation})`,
      ),
    ),
  );
}

/** The webhook delivery log (each attempt, "send again") and requests the package's policies blocked. */
export function renderDeliveries(el: HTMLElement, state: DevState, blocked: DevConfig['blocked'], act: Act): void {
  fill(
    el,
    state.deliveries.length ? null : h('p', { class: 'note' }, 'No webhook yet (start svc dev with --webhooks <url>).'),
    ...state.deliveries
      .slice()
      .reverse()
      .map((d) =>
        h(
          'div',
          { class: 'action', 'data-testid': 'delivery', 'data-event': d.event, 'data-state': d.state },
          h(
            'div',
            { class: 'row' },
            h('strong', { style: 'flex:1' }, d.event),
            h('span', { class: d.state == 'delivered' ? 'ok' : d.state == 'failed' ? 'err' : 'pending' }, d.state),
          ),
          ...d.attempts.map((a) =>
            h('div', { class: 'note' }, `${a.at.slice(11, 19)} ${a.status ?? a.error} (${a.duration_ms} ms)`),
          ),
          h(
            'button',
            { 'data-testid': 'resend', onclick: () => act('POST /__svc/deliveries/resend', { id: d.id }) },
            'Send again',
          ),
        ),
      ),
    h('h2', {}, 'Blocked requests'),
    blocked.length ? null : h('p', { class: 'note' }, 'None.'),
    ...blocked.map((b) => h('div', { class: 'err', 'data-testid': 'blocked' }, `${b.blocked}: ${b.advice}`)),
  );
}

/** The notification tray: opening one marks it read and opens its deep link in the app. */
export function renderNotifications(el: HTMLElement, state: DevState, open: (deepLink: string) => void): void {
  const mine = state.notifications.filter((n) => n.user_id == state.settings.current_user_id).reverse();
  fill(
    el,
    mine.length ? null : h('p', { class: 'note' }, 'No notification.'),
    ...mine.map((n) =>
      h(
        'div',
        { class: 'action', 'data-testid': 'notification' },
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
  );
}
