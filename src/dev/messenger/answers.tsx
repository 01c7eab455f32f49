import type { ComponentChildren } from 'preact';
import type { HostAnswers } from '../../host/core';
import type { Manifest } from '../../manifest';
import { isRecord } from '../../manifest/helpers';
import { createInputValidator } from '../../manifest/createInputValidator';
import { jsonQuote } from '../../manifest/jsonQuote';
import { SvcError } from '../../protocol/SvcError';
import type { SvcFile } from '../../protocol/types';
import { CardView } from './CardView';
import { createSchemaForm, fieldMessages, refusedFields } from './createSchemaForm';
import { scopeInWords } from './scopeInWords';
import { sheet } from './sheet';
import { clipped } from './clipped';
import { isolate } from './isolate';

type PermissionAsk = Parameters<NonNullable<HostAnswers['permission']>>[0];

const Pretty = ({ value }: { value: unknown }) => <pre class="note">{JSON.stringify(value, null, 2)}</pre>;

const isEmptyObject = (value: unknown) => isRecord(value) && Object.keys(value).length === 0;

/** The words and ways of a {@link yesNo} sheet. */
interface YesNo {
  yes: string;
  no: string;
  /** Closes the sheet with the no (an invocation's, or the page's that asked). */
  signal?: AbortSignal;
  /** Marks the yes as destructive: the focus starts on the no (see sheet). */
  danger?: boolean;
  /** The yes gives the app what the person must mean: the focus starts on the no (see SheetButton's `consent`). */
  consent?: boolean;
  /** Asked by the app's own call (see sheet's `byApp`). */
  byApp?: boolean;
}

/** A sheet of two buttons. */
const yesNo = (
  testid: string,
  title: string,
  body: ComponentChildren,
  { yes, no, signal, danger, consent, byApp }: YesNo,
) =>
  sheet<boolean>(
    testid,
    title,
    body,
    [
      { label: no, value: false, testid: `${testid}-no` },
      { label: yes, value: true, primary: true, danger, consent, testid: `${testid}-yes` },
    ],
    signal,
    byApp,
  );

/** The permission sheet. `signal`: set during an agent's call (mcpCalls), whose end closes the sheet. */
const askPermission =
  (appName: string) =>
  ({ scope, manifestScope, purpose, signal }: PermissionAsk & { signal?: AbortSignal }) =>
    sheet<'granted' | 'denied'>(
      'permission-sheet',
      // The person reads the scope in words; the developer's note names it once, as the manifest declares it, and
      // says which short name the app asked with, so the two names are not taken for two permissions.
      `${appName} asks for: ${scopeInWords(manifestScope)}`,
      <>
        <p>{purpose || '(no purpose given)'}</p>
        <p class="note">{`${manifestScope} in the manifest, asked for as '${scope}' in the app`}</p>
      </>,
      [
        { label: "Don't allow", value: 'denied', testid: 'permission-deny' },
        { label: 'Allow', value: 'granted', primary: true, consent: true, testid: 'permission-allow' },
      ],
      signal,
      true,
    );

/** The elicit sheet: a form from the schema; an answer that does not fit it never leaves the sheet. */
const elicit: NonNullable<HostAnswers['elicit']> = ({ prompt, schema, action, signal }) => {
  // A person answers it: a required choice is theirs to make, not preselected.
  const form = createSchemaForm(schema, 'elicit-field', 'elicit-sheet-error', { choose: true });
  // The host's own check.
  const validate = createInputValidator(schema);
  const read = () => {
    const value = form.read();
    const issues = validate(value);
    form.invalid.value = issues.length > 0 && refusedFields(issues.map((i) => i.path));
    // Each field is described by what is wrong with it, as in the agent panel's form.
    form.messages.value = fieldMessages(issues);
    if (issues.length)
      throw new Error(
        `${issues.map((i) => i.message.replace(/^\$\./, '').replace(/^\$ /, 'The answer ')).join('; ')}. Correct it, or refuse.`,
      );
    return value;
  };
  return sheet<unknown>(
    'elicit-sheet',
    prompt,
    <>
      <p class="note">{`Asked by the action ${action}`}</p>
      <form.Form />
    </>,
    [
      { label: 'Refuse', value: null, testid: 'elicit-refuse' },
      { label: 'Submit', value: read, primary: true, testid: 'elicit-submit' },
    ],
    signal,
  );
};

/** The file picker sheet: the offered files, one or several to tick. */
const pick =
  (appName: string): NonNullable<HostAnswers['pick']> =>
  ({ options, offered }, { signal } = {}) => {
    const chosen = new Set<SvcFile>();
    const toggle = (file: SvcFile, on: boolean) => {
      if (!options.multiple) chosen.clear();
      if (on) chosen.add(file);
      else chosen.delete(file);
    };
    const list = offered.map((file) => (
      <label class="row" key={file.file_id}>
        <input
          type={options.multiple ? 'checkbox' : 'radio'}
          name="pick"
          data-testid={`pick-${file.name}`}
          onChange={(e) => toggle(file, (e.currentTarget as HTMLInputElement).checked)}
        />
        {`${file.name} (${file.type}, ${file.size} bytes)`}
      </label>
    ));
    return sheet<SvcFile[] | null>(
      'picker-sheet',
      `${appName}: choose ${options.multiple ? 'files' : 'a file'}`,
      offered.length ? list : <p>No file fits.</p>,
      [
        { label: 'Cancel', value: null, testid: 'picker-cancel' },
        { label: 'Choose', value: () => offered.filter((f) => chosen.has(f)), primary: true, testid: 'picker-choose' },
      ],
      signal,
      true,
    );
  };

/**
 * The person's answers, as the messenger's sheets: every prompt of the platform is a dialog answered by clicking.
 * @param appName - the app's name, shown in every sheet so the person knows who asks.
 * @param isRoom - whether a room id names one of the person's rooms (not another tenant's): a message to another is
 * refused before the person is asked, as malformed params are.
 */
export function uiAnswers(
  appName: string,
  isRoom: (id: string) => boolean,
  actions: NonNullable<Manifest['actions']> = [],
): HostAnswers {
  return {
    permission: askPermission(appName),
    // A prompt of a page that is gone (it reloaded) closes: the rules then do nothing with its answer.
    send: async (message, { signal } = {}) => {
      if (!isRoom(message.room_id))
        throw new SvcError(
          'ERR_INVALID_ARGUMENT',
          `room_id ${jsonQuote(message.room_id)} is not one of the person's rooms: send to the room svc.room.current() gives.`,
          false,
          'message.send',
        );
      return yesNo(
        'send-sheet',
        `Send this message from ${appName}?`,
        <>
          <p dir="auto">{message.body}</p>
          {message.card ? (
            <CardView
              card={{ title: message.card.title, body: message.card.body, actions: message.card.actions ?? [] }}
              byline={`You via ${appName}`}
              testid="send-card"
            />
          ) : null}
        </>,
        { yes: 'Send', no: 'Cancel', signal, consent: true, byApp: true },
      );
    },
    // The person confirms knowing the app, what the action does (its manifest description) and with what.
    confirmAction: ({ name, title, input, context, destructive, signal }) =>
      yesNo(
        'action-sheet',
        // The app's words in any direction, isolated from the sentence around them (recheck47 F4: an Arabic title
        // after "Agent x: " was laid out left to right, its "?" at the wrong end).
        `${context.invoked_by === 'agent' ? `Agent ${context.agent_id}` : 'You'}: ${isolate(title)}?`,
        <>
          <p class="note">{`${appName}: ${isolate(clipped(actions.find((a) => a.name === name)?.description ?? name, 4000))}`}</p>
          {destructive ? <p class="err">This action is destructive.</p> : null}
          {isEmptyObject(input) ? <p class="note">No arguments.</p> : <Pretty value={input} />}
        </>,
        { yes: 'Confirm', no: 'Refuse', signal, danger: destructive },
      ),
    confirm: ({ title, body }, { signal } = {}) =>
      yesNo('confirm-sheet', clipped(title, 200), <p dir="auto">{clipped(body, 4000)}</p>, {
        yes: 'OK',
        no: 'Cancel',
        signal,
        byApp: true,
      }),
    elicit,
    pick: pick(appName),
    share: ({ title, url }, { signal } = {}) =>
      yesNo('share-sheet', `Share "${isolate(title)}"`, <p>{url}</p>, {
        yes: 'Share',
        no: 'Cancel',
        signal,
        consent: true,
        byApp: true,
      }),
    signIn: (_, { signal } = {}) =>
      yesNo('signin-sheet', `Sign in to ${appName}`, <p class="note">Simulated external OAuth sign-in.</p>, {
        yes: 'Sign in',
        no: 'Cancel',
        signal,
        byApp: true,
      }),
  };
}
