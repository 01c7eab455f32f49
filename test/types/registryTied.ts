// Type-level contract, checked by `tsc --noEmit`: the registry's params are tied to the facade's arguments, so a
// registry entry that renames a param or swaps storage.set's argument order does not compile.
import { methods, type TiedRegistry } from '../../src/protocol/methods';
import { obj, text } from '../../src/protocol/shape';

// The real registry is whole.
export const tied: TiedRegistry<typeof methods> = methods;

const renamed = { ...methods, 'storage.get': { ...methods['storage.get'], params: obj({ name: text }) } };
// @ts-expect-error renaming storage.get's `key` to `name` no longer matches svc.storage.get(key)
export const renamedFails: TiedRegistry<typeof renamed> = renamed;

const swapped = { ...methods, 'storage.set': { ...methods['storage.set'], args: ['value', 'key'] as const } };
// @ts-expect-error swapping storage.set's arguments (value, key) no longer matches svc.storage.set(key, value)
export const swappedFails: TiedRegistry<typeof swapped> = swapped;

const retyped = { ...methods, 'storage.set': { ...methods['storage.set'], params: obj({ key: text, value: text }) } };
// @ts-expect-error narrowing storage.set's value to a string no longer matches svc.storage.set(key, value: Json)
export const retypedFails: TiedRegistry<typeof retyped> = retyped;

const extra = { ...methods, 'room.current': { ...methods['room.current'], params: obj({ room: text }) } };
// @ts-expect-error a param the facade does not take is refused
export const extraFails: TiedRegistry<typeof extra> = extra;
