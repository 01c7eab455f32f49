// `import 'svc-sdk/global'` types the global: code that never imports svc still gets every member typed.
import 'svc-sdk/global';

export async function usesTheGlobal(): Promise<string> {
  const room = await globalThis.svc.room.current();
  // @ts-expect-error the global is the same typed Svc: no camera
  globalThis.svc.camera;
  return room?.room_id ?? svc.app.id;
}
