import { obj, opt, str } from '../shape';
import type { Identity } from '../types';
import { call, defineOperations } from './define';

/**
 * `svc.identity`.
 * @public
 */
export interface SvcIdentity {
  /**
   * Who the person is, for display only: never use it for authorisation (send a token to your backend instead).
   * Fields beyond `app_user_id`, `tenant_id` and `locale` appear only with their scope granted.
   */
  get(): Promise<Identity>;
}

/** The operations of `svc.identity`. */
export const identity = defineOperations<SvcIdentity>()({
  get: call({
    result: obj(
      { app_user_id: str, tenant_id: str, locale: str, display_name: opt(str), avatar_url: opt(str), email: opt(str) },
      true,
    ),
  }),
});
