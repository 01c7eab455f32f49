// `svc.storage` as a TypeScript app types it, checked by `tsc` over the published types: an `interface` of JSON
// fields is stored as it is (an index signature type refused it), anything that is no JSON is a compile error, and
// `get<T>()` names what was stored.
import { type JsonValue, svc } from 'svc-sdk';

interface Note {
  id: string;
  text: string;
  tag?: 'done' | 'todo';
  votes: number[];
  meta: { by: string; at: number | null };
}

export async function storesNotes(notes: Note[]): Promise<string | undefined> {
  await svc.storage.set('notes', notes);
  await svc.storage.set('count', notes.length);
  // @ts-expect-error a Date is no JSON
  await svc.storage.set('when', { at: new Date() });
  // @ts-expect-error a function is no JSON
  await svc.storage.set('run', { run: () => 1 });
  // @ts-expect-error a Map is no JSON
  await svc.storage.set('map', new Map<string, number>());
  // @ts-expect-error undefined is no JSON
  await svc.storage.set('nothing', undefined);
  const stored = await svc.storage.get<Note[]>('notes');
  // Without a type argument: a JSON value, to be narrowed.
  const plain: JsonValue | undefined = await svc.storage.get('count');
  return typeof plain === 'number' ? stored?.[plain - 1]?.text : undefined;
}
