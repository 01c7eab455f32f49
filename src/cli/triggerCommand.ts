import { resolve } from 'node:path';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../server/events';
import { type PostAnswer, postOnce, shownUrl, undeliveredWhy } from '../server/postOnce';
import { signRequest } from '../server/signRequest';
import { WEBHOOK_SCHEMAS } from '../server/webhookSchemas';
import { type CliIo, EXIT, writeLine } from './CliIo';
import { envFileLines } from './envFileLines';
import { readSmallText } from './readSmallText';
import { defineCommand } from './defineCommand';
import { usageError } from './usageError';
import { webhookBody } from '../dev/webhookBody';
import { printable } from '../manifest/printable';
import { redactSecrets } from '../dev/redactSecrets';

/** The platform's answer budget for a webhook, in ms. */
const ANSWER_BUDGET_MS = 5000;
/** How long `svc trigger` waits for a slow backend before giving up, in ms: long enough to measure one. */
const WAIT_MS = 30_000;
/** Characters of the answer's body printed. */
const BODY_SHOWN = 2000;

/** The settings of an env file by name (a line that is no `KEY=value` skipped). */
const parseEnvFile = (text: string): Record<string, string> =>
  Object.fromEntries(envFileLines(text).flatMap(({ name, value }) => (name ? [[name, value ?? '']] : [])));

/** The signing secret and the mini app id from the options, or the sentence saying what is missing. */
async function readSecret(
  cwd: string,
  backendEnv: string | undefined,
  secretFile: string | undefined,
): Promise<{ secret: string; miniAppId?: string; version?: string } | { problem: string }> {
  if (backendEnv && secretFile)
    return { problem: 'give --backend-env or --secret-file, not both: one of them holds the signing secret' };
  const file = backendEnv ?? secretFile;
  if (!file)
    return {
      problem:
        'no signing secret: pass --backend-env <file> (the file svc dev --backend-env writes, with SVC_SIGNING_SECRET) or --secret-file <file> (the secret alone)',
    };
  let text: string;
  try {
    text = await readSmallText(resolve(cwd, file));
  } catch (error) {
    return { problem: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` };
  }
  if (secretFile) {
    const secret = text.trim();
    if (!secret || /\s/.test(secret))
      return { problem: `${file} must hold the signing secret alone, on one line (it is empty or holds more)` };
    return { secret };
  }
  const env = parseEnvFile(text);
  if (!env.SVC_SIGNING_SECRET)
    return { problem: `${file} has no SVC_SIGNING_SECRET line: write it with svc dev --backend-env <file>` };
  return {
    secret: env.SVC_SIGNING_SECRET,
    ...(env.SVC_MINI_APP_ID ? { miniAppId: env.SVC_MINI_APP_ID } : {}),
    ...(env.SVC_APP_VERSION ? { version: env.SVC_APP_VERSION } : {}),
  };
}

/**
 * The event's example with fresh `occurred_at`, the mini app id and version of the backend's env file (`version` only
 * in the events that carry one), and the `--set` overrides; or what is wrong.
 */
function buildPayload(
  event: WebhookEventName,
  sets: readonly string[],
  app: { miniAppId?: string; version?: string },
): { payload: Record<string, unknown> } | { problem: string } {
  const { schema, example } = WEBHOOK_SCHEMAS[event];
  const fields = Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);
  const payload: Record<string, unknown> = {
    ...example,
    occurred_at: new Date().toISOString(),
    ...(app.miniAppId ? { mini_app_id: app.miniAppId } : {}),
    ...(app.version && 'version' in example ? { version: app.version } : {}),
  };
  for (const set of sets) {
    const at = set.indexOf('=');
    const field = at > 0 ? set.slice(0, at) : '';
    if (!field) return { problem: `--set ${set}: write it as field=value, such as --set app_user_id=au-bob` };
    if (field === 'event') return { problem: '--set event: the event is the first argument, not a field to set' };
    if (!fields.includes(field))
      return {
        problem: `--set ${field}: ${event} has no field ${field}; its fields are ${fields.filter((f) => f !== 'event').join(', ')}`,
      };
    // Node reads an argument's bytes that are not UTF-8 as U+FFFD: the backend would get another value than the one
    // typed, unsaid.
    const replaced = set.indexOf('\ufffd', at);
    if (replaced >= 0)
      return {
        problem: `--set ${field}: its value holds U+FFFD at character ${[...set.slice(at + 1, replaced)].length + 1}, what bytes that are not UTF-8 text become: type the value in UTF-8 (the terminal's encoding)`,
      };
    payload[field] = set.slice(at + 1);
  }
  const checked = schema.safeParse(payload);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return {
      problem: `--set ${String(issue.path[0])}=${String(payload[String(issue.path[0])])}: ${issue.message.toLowerCase()} (the value ${event} carries must match the contract)`,
    };
  }
  return { payload };
}

/**
 * `svc trigger <event> --to <url>`: sends one signed example of a webhook event to any URL, as the platform would
 * (the contract's example, `--set` overrides, a fresh timestamp), and prints the answer's status, time and body.
 * Exit 0 when the backend acknowledged it with a 2xx within 5 s, 1 when it did not (another status, no answer, or too
 * slow), 2 for bad input (nothing is sent).
 * @public
 */
export const TRIGGER = defineCommand({
  name: 'trigger',
  usage: ['<event> --to <url>'],
  summary: 'Send one signed test webhook to a backend, and print its answer.',
  description: `Sends one signed example of <event> to <url> as the platform would: the example payload of the
contract (svc-sdk/server-api.openapi.json) with a fresh occurred_at, your --set overrides and a fresh timestamp,
signed with the signing secret. Prints the answer's status, the time it took and its body. For a backend that svc dev
does not run: a staging server, a framework's own dev server.

Events: ${WEBHOOK_EVENTS.join(', ')}.`,
  options: {
    to: { type: 'string', value: 'url', help: 'The backend webhook URL (http or https). Required.' },
    'backend-env': {
      type: 'string',
      value: 'file',
      help: 'The env file svc dev --backend-env writes: its SVC_SIGNING_SECRET signs,\nits SVC_MINI_APP_ID and SVC_APP_VERSION name the mini app and version.',
    },
    'secret-file': { type: 'string', value: 'file', help: 'A file holding the signing secret alone.' },
    set: {
      type: 'string',
      multiple: true,
      value: 'field=value',
      help: 'Sets a field of the payload, such as --set app_user_id=au-bob (repeatable).',
    },
    again: {
      type: 'boolean',
      help: `Then sends the same body again with a fresh timestamp (a later second) and signature, as
the platform's retry does: a backend that dedupes acknowledges it without doing the work twice.`,
    },
  },
  footer: `Exit codes: 0 acknowledged (2xx within 5 s), 1 not acknowledged (another status, unreachable, or slower than
5 s), 2 bad input (nothing was sent).

Example:
  svc trigger user.deprovisioned --to http://localhost:3000/svc/webhooks --backend-env backend.env --set app_user_id=au-bob
`,
  async run({ values, positionals }, io) {
    const [name, ...extra] = positionals;
    if (!name) return usageError(io, 'trigger', `name the event to send: one of ${WEBHOOK_EVENTS.join(', ')}`);
    if (extra.length) return usageError(io, 'trigger', `one event at a time; got ${positionals.join(', ')}`);
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(name))
      return usageError(io, 'trigger', `unknown event "${name}"; the events are ${WEBHOOK_EVENTS.join(', ')}`);
    const event = name as WebhookEventName;
    if (!values.to) return usageError(io, 'trigger', 'name where to send it: --to <url> (your backend webhook URL)');
    let url: URL;
    try {
      url = new URL(values.to);
    } catch {
      return usageError(
        io,
        'trigger',
        `--to ${values.to} is not a URL: write it whole, such as http://localhost:3000/webhooks`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return usageError(
        io,
        'trigger',
        values.to.includes('://')
          ? `--to ${values.to} is a ${url.protocol} URL: webhooks go to http or https URLs`
          : `--to ${values.to} has no http:// or https://: write the URL whole, such as http://${values.to}`,
      );
    const secret = await readSecret(io.cwd, values['backend-env'], values['secret-file']);
    if ('problem' in secret) return usageError(io, 'trigger', secret.problem);
    const built = buildPayload(event, values.set ?? [], secret);
    if ('problem' in built) return usageError(io, 'trigger', built.problem);

    // Neither the env file nor --set named the app: the contract's example id goes, which a backend that checks the
    // id (as it should) refuses.
    if (!secret.miniAppId && !(values.set ?? []).some((set) => set.startsWith('mini_app_id=')))
      writeLine(
        io.stderr,
        `svc trigger: sending the contract's example mini_app_id ${String(built.payload.mini_app_id)}: pass --backend-env <file> (its SVC_MINI_APP_ID), or --set mini_app_id=<your app's id>.`,
      );
    const body = webhookBody(built.payload);
    let signedAt = 0;
    const send = async (label: string) => {
      signedAt = Math.floor(Date.now() / 1000);
      const headers = await signRequest({
        body,
        secret: secret.secret,
        miniAppId: String(built.payload.mini_app_id),
        timestamp: signedAt,
      });
      writeLine(io.stdout, `POST ${shownUrl(url)}  ${event}${label}`);
      return deliver(io, url, headers, body, secret.secret);
    };
    const first = await send('');
    if (first !== EXIT.ok && values.again)
      writeLine(io.stderr, 'svc trigger: not sent again (--again): the first delivery was not acknowledged.');
    if (first !== EXIT.ok || !values.again) return first;
    // The platform retries a second or more later, so its retry never carries the first timestamp: nor does this
    // one, or a backend that refuses a signature it has seen would refuse it as a replay.
    const nextSecond = (signedAt + 1) * 1000 - Date.now();
    if (nextSecond > 0) await new Promise((wake) => setTimeout(wake, nextSecond));
    return send('  (again: the same body, a fresh timestamp and signature)');
  },
});

/**
 * Posts one signed delivery and prints its answer, the signing secret and anything token-shaped in it redacted (a
 * backend's debug answer may echo them); the exit code it earns (0 a 2xx within 5 s).
 */
async function deliver(
  io: CliIo,
  url: URL,
  headers: Record<string, string>,
  body: string,
  secret: string,
): Promise<number> {
  // The body as sent, its own final newline aside.
  writeLine(io.stdout, body.trimEnd());
  const signal = AbortSignal.timeout(WAIT_MS);
  const started = performance.now();
  let response: PostAnswer;
  try {
    response = await postOnce(url, headers, body, signal);
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const why = signal.aborted
      ? `no answer in ${WAIT_MS / 1000} s: the platform gives up after 5 s and retries`
      : undeliveredWhy(error, url);
    writeLine(io.stderr, `svc trigger: could not deliver to ${shownUrl(url)} after ${ms} ms (${why}).`);
    return EXIT.invalid;
  }
  const ms = Math.round(performance.now() - started);
  const { status, statusText, text, length } = response;
  const ok = status >= 200 && status < 300;
  writeLine(io.stdout, `<-- ${status} ${statusText} in ${ms} ms`);
  // The backend's text, which could draw a line of its own (an escape sequence erasing the status, a "200" of its
  // own) or retitle the terminal: its controls are shown as escapes, its lines as lines.
  const said = redactSecrets(text, [secret]);
  const shown = printable(length > BODY_SHOWN ? said.slice(0, BODY_SHOWN) : said, { lines: true });
  if (text) writeLine(io.stdout, length > BODY_SHOWN ? `${shown}… (${length} characters)` : shown);
  if (ms > ANSWER_BUDGET_MS) {
    writeLine(
      io.stderr,
      `svc trigger: the backend answered in ${ms} ms, over the platform's 5 s rule: the platform counts that delivery as failed and retries it. Acknowledge first, then do the slow work.`,
    );
    return EXIT.invalid;
  }
  if (!ok) {
    writeLine(
      io.stderr,
      `svc trigger: the backend answered ${status}, not a 2xx: the platform would retry this delivery with backoff for 24 h.${status === 401 ? ' A 401: does the backend verify with this signing secret (and, during a rotation, the previous one too)?' : ''}`,
    );
    return EXIT.invalid;
  }
  return EXIT.ok;
}
