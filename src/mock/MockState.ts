import type { Manifest } from '../manifest';
import { SCOPE_TO_MANIFEST, type PermissionScope } from '../protocol/scopes';
import { isSvcError, SvcError } from '../protocol/SvcError';
import type { ActionContext, Identity, OutgoingMessage, PermissionState } from '../protocol/types';
import type { MockStore } from './createMockStore';
import type { MockAnswers, MockHostOptions, MockUi } from './types';

/**
 * A message the person sent through `svc.message.send()` (after confirming it).
 * @public
 */
export interface MockSentMessage extends OutgoingMessage {
  /** The id the host answered with. */
  event_id: string;
}

/**
 * A file saved through `svc.files.save()`.
 * @public
 */
export interface MockSavedFile {
  /** The id the host answered with. */
  file_id: string;
  /** The name the app gave. */
  name: string;
  /** The content. */
  blob: Blob;
}

/** Everything the mock's handlers share: configuration, the person's state, and what was recorded. */
export interface MockState {
  manifest: Manifest;
  options: MockHostOptions;
  identity: Identity;
  declared: ReadonlySet<PermissionScope>;
  permissions: Map<PermissionScope, PermissionState>;
  signedIn: boolean;
  /** The context of the running action invocation, so a token minted meanwhile carries `act.sub`. */
  acting: ActionContext | undefined;
  store: MockStore;
  ui: MockUi;
  sent: MockSentMessage[];
  saved: MockSavedFile[];
  progress: { action: string; message: string }[];
  unanswered: string[];
  seq: number;
  /** Asks the person through `answers[name]`; rejects `ERR_MOCK_UNANSWERED` when the test gave no such answer. */
  ask<K extends keyof MockAnswers>(
    name: K,
    method: string,
    ...args: Parameters<NonNullable<MockAnswers[K]>>
  ): Promise<Awaited<ReturnType<NonNullable<MockAnswers[K]>>>>;
}

/** A fresh, empty UI record. */
export const emptyUi = (): MockUi => ({
  title: undefined,
  titles: [],
  toasts: [],
  opened: [],
  shares: [],
  confirms: [],
  closed: 0,
});

/**
 * The short scopes the manifest declares: those whose manifest scope is in `permissions`. `identity.email` and
 * `camera` have no manifest scope, so they are never declared.
 */
export function declaredScopes(manifest: Manifest): Set<PermissionScope> {
  const listed = new Set<string>(manifest.permissions.map((p) => p.scope));
  return new Set(
    (Object.keys(SCOPE_TO_MANIFEST) as PermissionScope[]).filter((s) => {
      const m = SCOPE_TO_MANIFEST[s];
      return m !== null && listed.has(m);
    }),
  );
}

/** The initial permission states: declared scopes at `prompt` unless the options set them. */
export function initialPermissions(
  declared: ReadonlySet<PermissionScope>,
  preset: MockHostOptions['permissions'] = {},
): Map<PermissionScope, PermissionState> {
  const states = new Map<PermissionScope, PermissionState>();
  for (const scope of declared) states.set(scope, 'prompt');
  for (const [scope, state] of Object.entries(preset) as [PermissionScope, PermissionState][]) {
    // A test that grants an undeclared scope would pass against the mock and fail in a real host.
    if (!declared.has(scope)) {
      const m = (SCOPE_TO_MANIFEST as Record<string, string | null>)[scope];
      throw new TypeError(
        m === undefined
          ? `createMockHost(): permissions.${scope} is not a scope; use one of ${Object.keys(SCOPE_TO_MANIFEST).join(', ')}`
          : m === null
            ? `createMockHost(): permissions['${scope}'] has no manifest scope, so no mini app can be granted it`
            : `createMockHost(): permissions['${scope}'] is not declared; add { "scope": "${m}" } to the manifest's permissions`,
      );
    }
    if (state !== 'granted' && state !== 'denied' && state !== 'prompt')
      throw new TypeError(`createMockHost(): permissions['${scope}'] must be 'granted', 'denied' or 'prompt'`);
    states.set(scope, state);
  }
  return states;
}

/** Builds `ask`: one place that turns a missing answer into an error that tells the test author what to add. */
export function createAsk(answers: MockAnswers, unanswered: string[]): MockState['ask'] {
  return async (name, method, ...args) => {
    const answer = answers[name] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof answer != 'function') {
      unanswered.push(name);
      throw new SvcError(
        'ERR_MOCK_UNANSWERED',
        `the person was asked, but the test gave no answers.${name}; pass createMockHost({ answers: { ${name}: ... } }).`,
        false,
        method,
      );
    }
    try {
      return (await answer(...args)) as any;
    } catch (e) {
      if (isSvcError(e)) throw e; // a test may answer with an SvcError on purpose
      // Otherwise the host would turn it into an anonymous ERR_INTERNAL and hide the test's own mistake.
      throw new SvcError(
        'ERR_MOCK_ANSWER_THREW',
        `answers.${name} threw: ${(e as Error)?.message ?? e}`,
        false,
        method,
        { cause: e },
      );
    }
  };
}
