import { describe, expect, it } from 'vitest';
import { newPasswordField, passwordLength, passwordMessages, passwordRuleProblem } from '#shared/auth.ts';
import { passwordProblem } from '#shared/password-policy.ts';

const context = { email: 'dana.whitfield@example.com', name: 'Dana Whitfield', companyName: 'Lowcountry Comfort Heating & Air' };

describe('the password rules without a dictionary (shared/auth.ts, also run in the browser)', () => {
  it('needs 12 to 256 characters', () => {
    expect(passwordRuleProblem('')).toBe(passwordMessages.required);
    expect(passwordRuleProblem('a'.repeat(5) + 'bcdefg')).toBe(passwordMessages.tooShort);
    expect(passwordRuleProblem('x7!kq2#pl9@v'.padEnd(passwordLength.max + 1, 'z'))).toBe(passwordMessages.tooLong);
    expect(passwordRuleProblem('heron marsh 7')).toBeUndefined();
  });

  it('refuses one character repeated', () => {
    expect(passwordRuleProblem('aaaaaaaaaaaa')).toBe(passwordMessages.repeated);
    expect(passwordRuleProblem('            ')).toBe(passwordMessages.repeated);
  });

  it('refuses simple ascending or descending runs of digits or letters, wrapping around', () => {
    for (const password of ['123456789012', '098765432109', 'abcdefghijkl', 'ZYXWVUTSRQPO', 'wxyzabcdefgh']) {
      expect(passwordRuleProblem(password), password).toBe(passwordMessages.sequence);
    }
    expect(passwordRuleProblem('123456789013')).toBeUndefined();
    expect(passwordRuleProblem('abcdefghijk1')).toBeUndefined();
  });

  it('refuses the account\'s e-mail, its name and their words, however written', () => {
    for (const password of ['dana.whitfield@example.com!', 'xx-DanaWhitfield-xx', 'i am whitfield 99', 'the d-a-n-a w!ns']) {
      expect(passwordRuleProblem(password, context), password).toBe(passwordMessages.personal);
    }
    // Words shorter than four letters alone are not refused (too many passwords contain them).
    expect(passwordRuleProblem('dan river boats', { name: 'Dan Ray' })).toBeUndefined();
  });

  it('refuses the company name and its first word', () => {
    expect(passwordRuleProblem('LowCountry-2025-rocks', context)).toBe(passwordMessages.company);
    expect(passwordRuleProblem('lowcountrycomfortheatingair', context)).toBe(passwordMessages.company);
    expect(passwordRuleProblem('comfort is warm at night', context)).toBeUndefined();
  });

  it('the request field checks the length with the same messages', () => {
    expect(newPasswordField.safeParse('short').error?.issues[0]?.message).toBe(passwordMessages.tooShort);
    expect(newPasswordField.safeParse('').error?.issues[0]?.message).toBe(passwordMessages.required);
    expect(newPasswordField.safeParse('x'.repeat(257)).error?.issues[0]?.message).toBe(passwordMessages.tooLong);
  });
});

describe('the whole policy (shared/password-policy.ts, on the server)', () => {
  it('refuses common and easily guessed passwords', () => {
    for (const password of ['password1234', 'Password1234!', 'iloveyou1234', 'qwertyuiopasdf', '1q2w3e4r5t6y', 'letmein12345']) {
      expect(passwordProblem(password, context), password).toBe(passwordMessages.common);
    }
  });

  it('reports the first broken simple rule before the dictionary', () => {
    expect(passwordProblem('123456789012', context)).toBe(passwordMessages.sequence);
    expect(passwordProblem('Whitfield2024!!', context)).toBe(passwordMessages.personal);
  });

  it('accepts long passphrases and random passwords', () => {
    for (const password of ['tidal creek oyster heron', 'correct horse battery staple', 'x7!kq2#pl9@vR4', 'Spartina grass at low tide']) {
      expect(passwordProblem(password, context), password).toBeUndefined();
    }
  });

  it('judges a very long password in bounded time (only its first 64 characters are estimated)', () => {
    const long = Array.from({ length: passwordLength.max }, (_, index) => String.fromCharCode(33 + ((index * 37 + (index >> 3)) % 93))).join('');
    // No timing assertion: this finishing at all (the default settings took seconds) is the test.
    expect(['string', 'undefined']).toContain(typeof passwordProblem(long, context));
  });
});
