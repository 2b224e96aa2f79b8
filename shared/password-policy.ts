import { createRequire } from 'node:module';
import type * as ZxcvbnCore from '@zxcvbn-ts/core';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';
import type * as ZxcvbnEnglish from '@zxcvbn-ts/language-en';
import { passwordMessages, passwordRuleProblem, type PasswordContext } from './auth.ts';

/**
 * The whole password policy (issue 10): the dictionary-free rules of shared/auth.ts, then zxcvbn
 * (the common-password list of @zxcvbn-ts/language-common, English words and names, keyboard
 * patterns, dates, l33t) with a score of at least 3 of 4 ("safely unguessable: moderate
 * protection from offline slow-hash scenario"). Server side only: the dictionaries are megabytes.
 */
export const minimumStrengthScore = 3;

const estimatedLength = 64;

/**
 * zxcvbn and its dictionaries, which are decompressed as their modules load, were most of the time
 * the server spent loading its code: they load on first use instead (decision 023-b).
 */
const requireDictionary = createRequire(import.meta.url);

let factory: ZxcvbnFactory | undefined;
function estimator(): ZxcvbnFactory {
  if (factory) return factory;
  const { ZxcvbnFactory } = requireDictionary('@zxcvbn-ts/core') as typeof ZxcvbnCore;
  const zxcvbnCommon = requireDictionary('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon;
  const zxcvbnEnglish = requireDictionary('@zxcvbn-ts/language-en') as typeof ZxcvbnEnglish;
  // Built on first use (about half a second: the dictionaries are decompressed once).
  factory = new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEnglish.translations,
    // zxcvbn's time grows steeply with length and with l33t candidates (a random 256-character
    // password took 10 s with the defaults): the first 64 characters are judged, with at most 10
    // l33t substitutions, about 0.2 s at worst. Plenty to tell a strong password from a weak one.
    maxLength: estimatedLength,
    l33tMaxSubstitutions: 10,
  });
  return factory;
}

/** The first problem with a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string, context: PasswordContext = {}): string | undefined {
  const ruleProblem = passwordRuleProblem(password, context);
  if (ruleProblem) return ruleProblem;
  const userInputs = [context.email, context.email?.split('@')[0], context.name, context.companyName].filter(
    (value): value is string => Boolean(value && value.trim()),
  );
  const result = estimator().check(password, userInputs);
  return result.score < minimumStrengthScore ? passwordMessages.common : undefined;
}
