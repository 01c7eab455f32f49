import { printable } from '../manifest/printable';
import { redactText } from '../protocol/redactText';

/**
 * What happens on the platform, one event at a time, as the terminal prints it (`svc dev` without `--quiet`):
 * a launch in the page, each webhook attempt, each server API call, each blocked request, an app that never said
 * hello, each MCP tool call that ran in the page, each package the local store accepted while it ran (from
 * `svc publish` or the messenger's settings). Never carries a token or a secret.
 * @public
 */
export type DevEvent =
  | { type: 'launch'; user: string; room: string }
  | { type: 'no-hello'; seconds: number; app_url: string }
  | {
      type: 'webhook';
      event: string;
      delivery_id: string;
      attempt: number;
      status?: number;
      error?: string;
      duration_ms: number;
      /** The delivery this one sends again, when it is a "send again". */
      resend_of?: string;
      /** The last attempt failed too: no more are made (the delivery is `failed`). */
      gave_up?: true;
    }
  | { type: 'server-api'; method: string; path: string; status: number; duration_ms: number }
  | { type: 'blocked'; blocked: string; advice: string }
  | {
      type: 'store';
      /** The version the local store accepted: installed for everyone and served from now on. */
      version: string;
      /** The ids of the keys that signed it. */
      signers: string[];
      /** The key the app's id is bound to now. */
      key_id: string;
      /** The key it was bound to before, when this version rotated it. */
      moved_from?: string;
      /** What the publisher should know (a key the id moved away from signed it too). */
      notice?: string;
      /** svc dev runs an app folder: its next rebuild (a write of its manifest.json) serves the folder again. */
      folder?: boolean;
      /**
       * The app's frame loads the developer's own server (`--app-url`, the starter's `npm run dev`): the version is
       * recorded as installed, but that server's page is what runs.
       */
      app_url?: string;
    }
  | {
      type: 'mcp';
      /** The tool (the action's name) and the agent that called it. */
      tool: string;
      agent_id: string;
      /** The error code the agent got, or absent when the call returned a result. */
      code?: string;
      /** The error's sentence, as the agent got it (redacted). */
      message?: string;
      duration_ms: number;
    };

/**
 * One line for the terminal, like `stripe listen`: the time, what happened and its outcome. What others wrote (a
 * reported URL, an agent's name, an error's message) cannot start a line or send the terminal a control sequence:
 * its control characters are written as `\u` escapes, and anything shaped like a token is `[redacted]`.
 * @example
 * ```ts
 * const delivery_id = '3f2a9c1b-5d4e-4f6a-8b7c-2d1e0f9a8b7c';
 * formatDevEvent({ type: 'webhook', event: 'scope.granted', delivery_id, attempt: 1, status: 200, duration_ms: 12 });
 * // '13:02:11  --> webhook scope.granted [3f2a9c1b] attempt 1: 200 (12 ms)'
 * ```
 * @public
 */
export function formatDevEvent(event: DevEvent, now = new Date()): string {
  const time = now.toTimeString().slice(0, 8);
  return (
    [eventLines(event, time)]
      .flat()
      // Anything token-shaped in what others sent (a path holding a token, an error echoing one) is redacted first,
      // while its line breaks are still there to read a folded token by.
      .map((line) => printable(redactText(line)))
      .join('\n')
  );
}

/** The event's line, or its lines: a delivery that gave up says so on a line of its own. */
function eventLines(event: DevEvent, time: string): string | string[] {
  switch (event.type) {
    case 'launch':
      return `${time}  launch   ${event.user} opened the app ${event.room}`;
    case 'no-hello':
      return `${time}  warning  the app at ${event.app_url} has not said hello ${event.seconds} s after its launch. The client says it with the app's first call: if the app has made one, does it load svc-sdk, and (with --app-url) carry the svc-host-origins meta tag printed above?`;
    case 'webhook':
      return [
        `${time}  --> webhook ${event.event} [${event.delivery_id.slice(0, 8)}] attempt ${event.attempt}: ${event.status ?? event.error}${event.status !== undefined && event.status >= 300 && event.status < 400 ? ' (a redirect, not followed: give --webhooks the final URL)' : ''} (${event.duration_ms} ms)${event.resend_of ? ` (sent again from ${event.resend_of.slice(0, 8)})` : ''}`,
        ...(event.gave_up
          ? [
              `${time}  failed   webhook ${event.event} [${event.delivery_id.slice(0, 8)}]: no answer 2xx in ${event.attempt} attempts, so no more are made (the platform retries for 24 hours, then alerts in its developer console). Fix the backend, then press "send again" in the webhook panel.`,
            ]
          : []),
      ];
    case 'server-api':
      return `${time}  <-- ${event.method} ${event.path}: ${event.status} (${event.duration_ms} ms)`;
    case 'blocked':
      return `${time}  blocked  ${event.blocked}: ${event.advice}`;
    case 'store':
      return [
        event.app_url
          ? `${time}  store    accepted version ${event.version}, signed by ${event.signers.join(', ')}: installed, but the app's frame still loads ${event.app_url} (--app-url, your dev server), not the package: to run the package, start svc dev on the .swbn file`
          : `${time}  store    accepted version ${event.version}, signed by ${event.signers.join(', ')}: installed and served from now on${event.folder ? ", until the app folder's manifest.json is written again (a rebuild serves the folder)" : ''}`,
        ...(event.moved_from
          ? [`${time}  store    the id moved from key ${event.moved_from} to ${event.key_id} (a rotation)`]
          : []),
        ...(event.notice ? [`${time}  warning  ${event.notice}`] : []),
      ];
    case 'mcp':
      return `${time}  mcp      ${event.tool} by ${event.agent_id}: ${event.code ? `${event.code}: ${event.message}` : 'result'} (${event.duration_ms} ms)`;
  }
}
