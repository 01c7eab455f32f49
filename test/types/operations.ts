// Type-level contract, checked by `tsc --noEmit` (npm test): an operation is defined in one place, its namespace
// module, and the compiler holds everything else to it. A registry with one more operation (`ui.vibrate`, defined
// here as a namespace module would) makes every host's effects incomplete until they handle it or opt out, and an
// entry whose params or result do not match its facade member does not compile.
import type { EffectsOf, HostAnswers, HostEffects } from '../../src/host/index';
import { methods } from '../../src/protocol/methods';
import { call, defineOperations, none, notification } from '../../src/protocol/operations/define';
import { type SvcUi, ui } from '../../src/protocol/operations/ui';
import { json, num, obj, str, text } from '../../src/protocol/shape';
import type { JsonValue } from '../../src/protocol/types';
import { createMockHost } from '../../src/mock';
import type { mockEffects } from '../../src/mock/mockEffects';
import { type OperationDoc, OPERATION_DOCS } from '../../scripts/operationDocs';

// The namespace module with one operation more: its facade member and its entry, nothing else.
interface SvcUiPlus extends SvcUi {
  /** Vibrates the device for `ms` milliseconds. */
  vibrate(ms: number): Promise<void>;
}
const uiPlus = defineOperations<SvcUiPlus>()({
  ...ui,
  vibrate: call({ args: ['ms'], params: obj({ ms: num }), result: none }),
});
const registry = { ...methods, 'ui.vibrate': uiPlus.vibrate };
type Effects = EffectsOf<typeof registry>;

type MockEffects = ReturnType<typeof mockEffects>;
declare const mock: MockEffects;
// The mock's effects are complete for the registry as it is.
export const complete: HostEffects = mock;
// @ts-expect-error the mock has no effect for ui.vibrate: it must add one, or say `'ui.vibrate': null`
export const incomplete: Effects = mock;
// Opting out is explicit: null says this host does not offer it.
export const optedOut: Effects = { ...mock, 'ui.vibrate': null };
export const handled: Effects = { ...mock, 'ui.vibrate': ({ ms }) => void ms };
// @ts-expect-error the effect gets the params its entry checks (`ms` is a number)
export const mistyped: Effects = { ...mock, 'ui.vibrate': ({ ms }: { ms: string }) => void ms };

// PROTOCOL.md's operation table is written from the registry and a prose row per operation: the new operation's row
// is asked for by the compiler too.
type Docs = { readonly [M in keyof typeof registry]: OperationDoc };
// @ts-expect-error OPERATION_DOCS has no row for ui.vibrate: add its params (and result) to scripts/operationDocs.ts
export const docsIncomplete: Docs = OPERATION_DOCS;
export const docsComplete: Docs = { ...OPERATION_DOCS, 'ui.vibrate': { params: '`{ ms }`' } };

// An operation the rules answer themselves (no effect) needs none.
const noEffect = { ...methods, 'ui.vibrate': { ...uiPlus.vibrate, effect: false as const } };
export const ruleOwned: EffectsOf<typeof noEffect> = mock;

// What an operation asks comes from its entry: the host's answers are typed by it.
export const answers: HostAnswers = {
  share: ({ title, url }) => title.length > 0 && url.startsWith('https:'),
  permission: ({ scope, purpose }) => (scope === 'room.send' && purpose ? 'granted' : 'denied'),
  // @ts-expect-error ui.confirm's answer is a yes or no
  confirm: () => 'yes',
};
export const mockAnswersAreHostAnswers = (manifest: unknown) =>
  createMockHost({ manifest, answers: { send: (message) => message.body.length > 0 } });

// Entries are tied to their facade member.
interface Store {
  get(key: string): Promise<JsonValue | undefined>;
  set(key: string, value: JsonValue): Promise<void>;
  note(message: string): void;
}
export const tied = defineOperations<Store>()({
  get: call({ args: ['key'], params: obj({ key: text }), result: json }),
  set: call({ args: ['key', 'value'], params: obj({ key: text, value: json }), result: none }),
  note: notification({ args: ['message'], params: obj({ message: str }) }),
});
export const renamed = defineOperations<Store>()({
  // @ts-expect-error renaming get's `key` to `name` no longer matches get(key)
  get: call({ args: ['key'], params: obj({ name: text }), result: json }),
  set: tied.set,
  note: tied.note,
});
export const swapped = defineOperations<Store>()({
  get: tied.get,
  // @ts-expect-error swapping set's arguments (value, key) no longer matches set(key, value)
  set: call({ args: ['value', 'key'], params: obj({ key: text, value: json }), result: none }),
  note: tied.note,
});
export const narrowed = defineOperations<Store>()({
  get: tied.get,
  // @ts-expect-error narrowing set's value to a string no longer matches set(key, value: JsonValue)
  set: call({ args: ['key', 'value'], params: obj({ key: text, value: str }), result: none }),
  note: tied.note,
});
export const extra = defineOperations<Store>()({
  get: tied.get,
  set: tied.set,
  // @ts-expect-error a param the facade does not take is refused
  note: notification({ args: ['message'], params: obj({ message: str, level: str }) }),
});
export const wrongResult = defineOperations<Store>()({
  get: tied.get,
  // @ts-expect-error set resolves to nothing: a result check of a string does not fit
  set: call({ args: ['key', 'value'], params: obj({ key: text, value: json }), result: str }),
  note: tied.note,
});
// @ts-expect-error every facade member needs its entry
export const missing = defineOperations<Store>()({ get: tied.get, set: tied.set });
