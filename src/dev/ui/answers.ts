import type { HostAnswers } from '../../host';
import { createInputValidator } from '../../manifest/createInputValidator';
import type { SvcFile } from '../../protocol/types';
import { cardView } from './cardView';
import { h } from './dom';
import { scopeInWords } from './scopeInWords';
import { schemaForm } from './schemaForm';
import { sheet } from './sheet';

type PermissionAsk = Parameters<NonNullable<HostAnswers['permission']>>[0];

const pretty = (value: unknown) => h('pre', { class: 'note' }, JSON.stringify(value, null, 2));

/**
 * The person's answers, as the messenger's sheets: every prompt of the platform is a dialog answered by clicking.
 * @param appName - the app's name, shown in every sheet so the person knows who asks.
 */
export function uiAnswers(appName: string): HostAnswers {
  const yesNo = (
    testid: string,
    title: string,
    body: Parameters<typeof sheet>[2],
    yes = 'Allow',
    no = "Don't allow",
    signal?: AbortSignal,
  ) =>
    sheet<boolean>(
      testid,
      title,
      body,
      [
        { label: no, value: false, testid: `${testid}-no` },
        { label: yes, value: true, primary: true, testid: `${testid}-yes` },
      ],
      signal,
    );
  return {
    // `signal`: set during an agent's call (mcpCalls), whose end closes the sheet.
    permission: ({ scope, manifestScope, purpose, signal }: PermissionAsk & { signal?: AbortSignal }) =>
      sheet<'granted' | 'denied'>(
        'permission-sheet',
        // The person reads the scope in words; the developer's note names it once, as the manifest declares it, and
        // says which short name the app asked with, so the two names are not taken for two permissions.
        `${appName} asks for: ${scopeInWords(manifestScope)}`,
        [
          h('p', {}, purpose || '(no purpose given)'),
          h('p', { class: 'note' }, `${manifestScope} in the manifest, asked for as '${scope}' in the app`),
        ],
        [
          { label: "Don't allow", value: 'denied', testid: 'permission-deny' },
          { label: 'Allow', value: 'granted', primary: true, testid: 'permission-allow' },
        ],
        signal,
      ),
    send: (message) =>
      yesNo(
        'send-sheet',
        `Send this message from ${appName}?`,
        [
          h('p', {}, message.body),
          message.card
            ? cardView(
                { title: message.card.title, body: message.card.body, actions: message.card.actions ?? [] },
                `You via ${appName}`,
                undefined,
                'send-card',
              )
            : null,
        ],
        'Send',
        'Cancel',
      ),
    confirmAction: ({ title, input, context, destructive, signal }) =>
      yesNo(
        'action-sheet',
        `${context.invoked_by === 'agent' ? `Agent ${context.agent_id}` : 'You'}: ${title}?`,
        [destructive ? h('p', { class: 'err' }, 'This action is destructive.') : null, pretty(input)],
        'Confirm',
        'Refuse',
        signal,
      ),
    confirm: ({ title, body }) => yesNo('confirm-sheet', title, [h('p', {}, body)], 'OK', 'Cancel'),
    elicit: ({ prompt, schema, action, signal }) => {
      const form = schemaForm(schema, 'elicit-field');
      // The host's own check: an answer that does not fit the schema never leaves the sheet.
      const validate = createInputValidator(schema);
      const read = () => {
        const value = form.read();
        const issues = validate(value);
        form.element.querySelectorAll('[data-testid^=elicit-field]').forEach((el) => {
          el.setAttribute('aria-invalid', issues.length ? 'true' : 'false');
        });
        if (issues.length)
          throw new Error(
            `${issues.map((i) => i.message.replace(/^\$\./, '').replace(/^\$ /, 'The answer ')).join('; ')}. Correct it, or refuse.`,
          );
        return value;
      };
      return sheet<unknown>(
        'elicit-sheet',
        prompt,
        [h('p', { class: 'note' }, `Asked by the action ${action}`), form.element],
        [
          { label: 'Refuse', value: null, testid: 'elicit-refuse' },
          { label: 'Submit', value: read, primary: true, testid: 'elicit-submit' },
        ],
        signal,
      );
    },
    pick: ({ options, offered }) => {
      const boxes = offered.map((file) => ({
        file,
        box: h('input', {
          type: options.multiple ? 'checkbox' : 'radio',
          name: 'pick',
          'data-testid': `pick-${file.name}`,
        }),
      }));
      const list = boxes.map(({ file, box }) =>
        h('label', { class: 'row' }, box, `${file.name} (${file.type}, ${file.size} bytes)`),
      );
      return sheet<SvcFile[] | null>(
        'picker-sheet',
        `${appName}: choose ${options.multiple ? 'files' : 'a file'}`,
        offered.length ? list : [h('p', {}, 'No file fits.')],
        [
          { label: 'Cancel', value: null, testid: 'picker-cancel' },
          {
            label: 'Choose',
            value: () => boxes.filter((b) => b.box.checked).map((b) => b.file),
            primary: true,
            testid: 'picker-choose',
          },
        ],
      );
    },
    share: ({ title, url }) => yesNo('share-sheet', `Share "${title}"`, [h('p', {}, url)], 'Share', 'Cancel'),
    signIn: () =>
      yesNo(
        'signin-sheet',
        `Sign in to ${appName}`,
        [h('p', { class: 'note' }, 'Simulated external OAuth sign-in.')],
        'Sign in',
        'Cancel',
      ),
  };
}
