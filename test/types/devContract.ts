// Type-level contract of svc dev's control API, checked by `tsc --noEmit` (npm test): the platform implements every
// route of ControlRoutes with its body and answer, and the page calls only those routes, with their bodies.
import type { ControlRoute, ControlRoutes, DevConfig, DevState } from '../../src/dev/devContract';
import type { ControlHandlers } from '../../src/dev/platform/controlActions';
import type { hc } from 'hono/client';
import type { ControlApp } from '../../src/dev/platform/createControlApp';
import type { control } from '../../src/dev/messenger/api';

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

// The control app serves the contract: every route of ControlRoutes is a route of the app Hono's typed client calls
// (src/dev/messenger/api.ts), taking the contract's body and answering (as JSON) the contract's answer.
type Client = ReturnType<typeof hc<ControlApp>>;
type Walk<C, P extends string> = P extends `${infer Head}/${infer Rest}`
  ? Walk<C[Head & keyof C], Rest>
  : C[P & keyof C];
type Endpoint<R extends ControlRoute> = R extends `${infer M} /${infer P}`
  ? Walk<Client, P>[`$${Lowercase<M>}` & keyof Walk<Client, P>]
  : never;
type Served<R extends ControlRoute> =
  Endpoint<R> extends (args: infer A, ...rest: never[]) => Promise<infer Answer>
    ? [
        ControlRoutes[R]['request'] extends undefined
          ? true
          : { json: ControlRoutes[R]['request'] } extends A
            ? true
            : false,
        ControlRoutes[R]['response'] extends undefined
          ? true
          : Answer extends { json(): Promise<infer J> }
            ? J extends ControlRoutes[R]['response']
              ? true
              : false
            : false,
      ]
    : [false, false];
// The one looser body: the webhook panel sends a <select>'s value as `event`, which the route checks against the
// event names (a 400 naming them), so the page's type is a string where the app's is the names.
type Looser = 'POST /__svc/deliveries/test';
type Mismatched = { [R in Exclude<ControlRoute, Looser>]: Served<R> extends [true, true] ? never : R }[Exclude<
  ControlRoute,
  Looser
>];
export const everyRouteServed: [Mismatched] extends [never] ? true : Mismatched = true;
