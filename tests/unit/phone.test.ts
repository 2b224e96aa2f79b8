import { describe, expect, it } from 'vitest';
import { formatPhoneForDisplay, phoneLast10, toE164 } from '#shared/phone.ts';

describe('toE164', () => {
  it('reads the ways US customers type a number', () => {
    for (const typed of ['(843) 555-0142', '843.555.0142', '+1 843 555 0142', '1-843-555-0142', '8435550142', '  843 555 0142  ']) {
      expect(toE164(typed), typed).toBe('+18435550142');
    }
  });

  it('keeps a number written with another country code as written', () => {
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('+33 6 12 34 56 78')).toBe('+33612345678');
  });

  it('reads a number without a country code as the default country', () => {
    expect(toE164('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(toE164('+1 843 555 0142', 'GB')).toBe('+18435550142');
  });

  it('drops an extension (E.164 has none)', () => {
    expect(toE164('843-555-0142 ext. 12')).toBe('+18435550142');
  });

  it('answers null for what is not a valid number', () => {
    for (const typed of ['', '   ', 'abc', '123', '555-0142', '843 555 014', '(123) 456-7890', '1-800-FLOWERS', '+999 1234 5678', '8'.repeat(80)]) {
      expect(toE164(typed), typed).toBeNull();
    }
  });
});

describe('phoneLast10', () => {
  it('is the last ten digits, whatever the punctuation', () => {
    expect(phoneLast10('+18435550142')).toBe('8435550142');
    expect(phoneLast10('(843) 555-0142')).toBe('8435550142');
    expect(phoneLast10('1-843-555-0142')).toBe('8435550142');
    expect(phoneLast10('843.555.0142')).toBe('8435550142');
  });

  it('is null with fewer than ten digits', () => {
    expect(phoneLast10('555-0142')).toBeNull();
    expect(phoneLast10('')).toBeNull();
  });
});

describe('formatPhoneForDisplay', () => {
  it('shows a +1 number in the national format and another country in the international one', () => {
    expect(formatPhoneForDisplay('+18435550142')).toBe('(843) 555-0142');
    expect(formatPhoneForDisplay('+442079460958')).toBe('+44 20 7946 0958');
  });

  it('returns what it cannot read as it is', () => {
    expect(formatPhoneForDisplay('+15550142')).toBe('+15550142');
    expect(formatPhoneForDisplay('call the office')).toBe('call the office');
  });

  it('round-trips with toE164', () => {
    expect(toE164(formatPhoneForDisplay('+18435550142'))).toBe('+18435550142');
    expect(toE164(formatPhoneForDisplay('+442079460958'))).toBe('+442079460958');
  });
});
