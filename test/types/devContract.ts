// Type-level contract of svc dev's control API, checked by `tsc --noEmit` (npm test): the platform implements every
// route of ControlRoutes with its body and answer, and the page calls only those routes, with their bodies.
import type { ControlRoutes, DevConfig, DevState } from '../../src/dev/devContract';
import type { ControlHandlers } from '../../src/dev/platform/controlActions';
import type { control } from '../../src/dev/ui/api';

declare const call: typeof control;

export async function pageCalls(): Promise<void> {
  const config: DevConfig = await call('GET /__svc/config');
  const state: DevState = await call('POST /__svc/grant', { scope: 'svc.notifications' });
  void [config, state];
  // @ts-expect-error a route the contract does not name
  await call('POST /__svc/nope', {});
  // @ts-expect-error a body of the wrong shape
  await call('POST /__svc/rooms', { name: 1 });
  // @ts-expect-error a GET takes no body
  await call('GET /__svc/state', {});
}

// @ts-expect-error an action missing from the platform's table does not compile
export const missing: Pick<ControlHandlers, 'POST /__svc/install' | 'POST /__svc/grant'> = {
  'POST /__svc/install': () => undefined,
};

export const wrongAnswer: Pick<ControlHandlers, 'POST /__svc/subject-token'> = {
  // @ts-expect-error an answer that is not the route's response
  'POST /__svc/subject-token': () => ({ token: 'x' }),
};

export type Routes = keyof ControlRoutes;
