import type { ValidatedRuleOptions } from './createRules';

/**
 * The names of {@link withRules}' options, in the order its refusal lists them: written as an object the compiler
 * holds to `ValidatedRuleOptions`, so an option added there is known here too. `createHost` refuses the same names
 * (but `validator`) given to it, where they would be ignored.
 * @internal
 */
export const RULE_OPTION_NAMES = Object.keys({
  manifest: 0,
  validator: 0,
  answers: 0,
  grants: 0,
  storage: 0,
  signedIn: 0,
  confirmActions: 0,
  handlerWait: 0,
} satisfies Record<keyof ValidatedRuleOptions, 0>);
