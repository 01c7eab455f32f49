import type { DevState } from '../devContract';
import { forgetPageState } from './appHost';
import type { Messenger, SettingsActions } from './Messenger';
import { sheet } from './sheet';

/** A confirmation sheet for an action that changes what the app may do. */
interface Confirmation {
  testid: string;
  question: string;
  consequence: string;
  label: string;
  run: () => Promise<DevState | undefined>;
  /** What happened, said above the timeline once it ran. */
  after: string;
}

/** An administrator or person action that changes what the app may do: confirmed first, explained after. */
async function confirmed(m: Messenger, c: Confirmation): Promise<void> {
  const yes = await sheet<boolean>(c.testid, c.question, <p>{c.consequence}</p>, [
    { label: 'Cancel', value: false, testid: `${c.testid}-no` },
    { label: c.label, value: true, danger: true, testid: `${c.testid}-yes` },
  ]);
  if (!yes || !(await c.run())) return;
  m.close();
  m.say(c.after, 'warn');
}

/** The reset: back to the first launch, the page's own state (refusals, storage, results) included. */
async function reset(m: Messenger): Promise<void> {
  const yes = await sheet<boolean>(
    'reset-sheet',
    'Reset to a fresh state?',
    <>
      <p>
        Back to the first launch: Alice and Bob in Acme, Carol in Globex, the app installed for Alice and Carol, nothing
        granted, no messages, cards, notifications or deliveries. Every person's stored data (svc.storage) goes too, and
        the store's record: the versions published, their revocations, and the key the app's id is bound to.
      </p>
      <p class="note">
        {m.config.statePath ? `The state file ${m.config.statePath} is rewritten.` : 'The state lives in memory only.'}
      </p>
    </>,
    [
      { label: 'Cancel', value: false, testid: 'reset-no' },
      { label: 'Reset', value: true, danger: true, testid: 'reset-yes' },
    ],
  );
  if (!yes) return;
  m.close();
  forgetPageState();
  m.agent.clear();
  if (await m.act('POST /__svc/reset', {})) m.say('Fresh state: every change was undone.', 'info');
}

/** What the settings' buttons do that asks first and explains after. */
export function settingsActions(m: Messenger): SettingsActions {
  const { name } = m.manifest;
  return {
    uninstall: () => {
      const who = m.me.value?.display_name;
      return confirmed(m, {
        testid: 'uninstall-sheet',
        question: `Uninstall ${name} for ${who}?`,
        consequence: `The app closes. Its backend receives installation.deleted; from now on the identity provider refuses ${who}'s tokens, so auth.getToken fails in the app.`,
        label: 'Uninstall',
        run: () => m.act('POST /__svc/uninstall', {}),
        after: `${name} was uninstalled for ${who} and closed; the backend was sent installation.deleted. Opening it again offers to install it.`,
      });
    },
    deprovision: () => {
      const person = m.me.value?.display_name;
      const tenant = m.store.current().tenants.find((t) => t.id === m.me.value?.tenant_id)?.name;
      return confirmed(m, {
        testid: 'deprovision-sheet',
        question: `Remove ${person} from ${tenant}?`,
        consequence: `${person} leaves the organisation: the app closes, every token exchange for them is refused, and the backend receives user.deprovisioned and must delete their data. Only a reset brings them back.`,
        label: 'Remove',
        run: () => m.act('POST /__svc/deprovision', {}),
        after: `${person} was removed from ${tenant}: ${name} was closed and cannot be opened for them; the backend was sent user.deprovisioned.`,
      });
    },
    revokeVersion: () => {
      const { version } = m.store.current();
      return confirmed(m, {
        testid: 'revoke-version-sheet',
        question: `Revoke version ${version} of ${name}?`,
        consequence:
          'For everyone: the app closes, the identity provider refuses its tokens (auth.getToken fails), the server API answers 409 version-revoked, and the backend receives app.revoked. Publishing a higher version (svc publish) or a reset undoes it.',
        label: 'Revoke',
        run: () => m.act('POST /__svc/revoke-version', { reason: 'revoked in svc dev' }),
        after: `Version ${version} was revoked: ${name} was closed; its tokens are refused and the server API answers 409 version-revoked. The backend was sent app.revoked.`,
      });
    },
    reset: () => reset(m),
  };
}
