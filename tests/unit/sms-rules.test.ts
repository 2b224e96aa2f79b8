import { describe, expect, it } from 'vitest';
import { classifyInboundText, twimlMessage } from '#server/adapters/sms/inbound-keywords.ts';
import { classifyTwilioRefusal } from '#server/adapters/sms/twilio-sender.ts';
import { twilioSignature, verifyTwilioSignature } from '#server/adapters/sms/twilio-signature.ts';
import { inboundSmsParams, signedInboundRequest } from '#tests/support/fake-sms-server.ts';

describe("Twilio's request signature", () => {
  // The worked example of Twilio's "Webhooks security" page (https://www.twilio.com/docs/usage/security#validating-requests):
  // auth token 12345, this URL and these parameters sign as 0/KCTR6DLpKmkAf8muzZqo1nDgQ=.
  const authToken = '12345';
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
  const documented = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

  it("computes the signature of Twilio's documented example", () => {
    expect(twilioSignature(authToken, url, params)).toBe(documented);
  });

  it('sorts the parameters by name, whatever order they came in', () => {
    const shuffled = { To: params.To, Digits: params.Digits, CallSid: params.CallSid, From: params.From, Caller: params.Caller };
    expect(twilioSignature(authToken, url, shuffled)).toBe(documented);
  });

  it('verifies the documented signature', () => {
    expect(verifyTwilioSignature({ authToken, url, params, signature: documented })).toBe(true);
  });

  it('refuses a tampered, added or missing parameter', () => {
    expect(verifyTwilioSignature({ authToken, url, params: { ...params, Digits: '9999' }, signature: documented })).toBe(false);
    expect(verifyTwilioSignature({ authToken, url, params: { ...params, Body: 'STOP' }, signature: documented })).toBe(false);
    const { Digits: _dropped, ...withoutDigits } = params;
    expect(verifyTwilioSignature({ authToken, url, params: withoutDigits, signature: documented })).toBe(false);
  });

  it('refuses another URL: path, query, host or scheme', () => {
    for (const other of [
      'https://mycompany.com/other.php?foo=1&bar=2',
      'https://mycompany.com/myapp.php?foo=1&bar=3',
      'https://mycompany.com/myapp.php',
      'https://evil.example/myapp.php?foo=1&bar=2',
      'http://mycompany.com/myapp.php?foo=1&bar=2',
    ]) {
      expect(verifyTwilioSignature({ authToken, url: other, params, signature: documented }), other).toBe(false);
    }
  });

  it('refuses a wrong token, an empty token, and a missing, empty or truncated signature', () => {
    expect(verifyTwilioSignature({ authToken: '54321', url, params, signature: documented })).toBe(false);
    expect(verifyTwilioSignature({ authToken: '', url, params, signature: twilioSignature('', url, params) })).toBe(false);
    expect(verifyTwilioSignature({ authToken, url, params, signature: undefined })).toBe(false);
    expect(verifyTwilioSignature({ authToken, url, params, signature: null })).toBe(false);
    expect(verifyTwilioSignature({ authToken, url, params, signature: '' })).toBe(false);
    expect(verifyTwilioSignature({ authToken, url, params, signature: documented.slice(0, -1) })).toBe(false);
  });

  it("accepts the URL with or without the scheme's standard port, as twilio-node does", () => {
    const withPort = twilioSignature(authToken, 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params);
    expect(verifyTwilioSignature({ authToken, url, params, signature: withPort })).toBe(true);
    expect(verifyTwilioSignature({ authToken, url: 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params, signature: documented })).toBe(true);
    // Another port is another URL.
    const otherPort = twilioSignature(authToken, 'https://mycompany.com:8443/myapp.php?foo=1&bar=2', params);
    expect(verifyTwilioSignature({ authToken, url, params, signature: otherPort })).toBe(false);
  });

  it('signedInboundRequest (tests/support) builds what Twilio sends, and it verifies', () => {
    const url = 'https://www.lowcountrycomfort.example/api/public/sms/inbound';
    const params = inboundSmsParams({ from: '+18435550142', to: '+18435550100', body: 'C & thanks' });
    const request = signedInboundRequest({ authToken: 'tok', url, params });
    expect(request.path).toBe('/api/public/sms/inbound');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const received = Object.fromEntries(new URLSearchParams(request.body));
    expect(received).toEqual(params);
    expect(verifyTwilioSignature({ authToken: 'tok', url, params: received, signature: request.headers['x-twilio-signature'] })).toBe(true);
    expect(verifyTwilioSignature({ authToken: 'other', url, params: received, signature: request.headers['x-twilio-signature'] })).toBe(false);
  });
});

describe('inbound keywords', () => {
  it('reads the carrier opt-out keywords as stop, in any case, trimmed', () => {
    for (const body of ['STOP', 'stop', ' Stop ', 'STOPALL', 'unsubscribe', 'CANCEL', 'end', 'Quit', 'OPTOUT', 'revoke', '\nSTOP\n', 'Stop.', 'STOP!']) {
      expect(classifyInboundText(body).kind, JSON.stringify(body)).toBe('stop');
    }
  });

  it('reads START, YES, UNSTOP as start and HELP, INFO as help', () => {
    for (const body of ['START', 'start', 'Yes', 'UNSTOP']) expect(classifyInboundText(body).kind, body).toBe('start');
    for (const body of ['HELP', 'help ', 'Info']) expect(classifyInboundText(body).kind, body).toBe('help');
  });

  it('reads C / CONFIRM as confirm and R / RESCHEDULE as reschedule', () => {
    for (const body of ['C', 'c', ' confirm ', 'CONFIRM']) expect(classifyInboundText(body).kind, body).toBe('confirm');
    for (const body of ['R', 'r', 'Reschedule']) expect(classifyInboundText(body).kind, body).toBe('reschedule');
  });

  it('applies a keyword to the whole message only', () => {
    for (const body of ['Please stop by at 3', 'stop it', 'yes please', 'C you tomorrow', 'can I reschedule?', 'STOP STOP', 'help!', 'S T O P', '']) {
      expect(classifyInboundText(body).kind, body).toBe('other');
    }
  });

  it('hands back the text trimmed', () => {
    expect(classifyInboundText('  The unit is leaking again\n')).toEqual({ kind: 'other', text: 'The unit is leaking again' });
    expect(classifyInboundText(' stop ')).toEqual({ kind: 'stop', text: 'stop' });
  });
});

describe('TwiML answers', () => {
  it('answers nothing with an empty Response', () => {
    expect(twimlMessage()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(twimlMessage('')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(twimlMessage('   ')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
  });

  it('answers one message, XML-escaped', () => {
    expect(twimlMessage('Thanks, see you Tue 9-11 AM.')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>Thanks, see you Tue 9-11 AM.</Message></Response>');
    expect(twimlMessage(`Tom & Jerry's <HVAC> "Co"`)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Message>Tom &amp; Jerry&apos;s &lt;HVAC&gt; &quot;Co&quot;</Message></Response>',
    );
    expect(twimlMessage('</Message><Redirect>https://evil.example</Redirect>')).not.toContain('<Redirect>');
  });

  it('drops characters XML cannot hold', () => {
    expect(twimlMessage('a\u0000b\u0007c\td')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>abc\td</Message></Response>');
    expect(twimlMessage('ok 🙂')).toContain('ok 🙂');
  });
});

describe('classifyTwilioRefusal', () => {
  it('marks the number for 21211, 21614, 21408, 21612, whatever the status', () => {
    for (const code of [21211, 21614, 21408, 21612]) expect(classifyTwilioRefusal(400, code), String(code)).toEqual({ permanent: true, recipientUnreachable: true });
  });

  it('does not retry an unsubscribed recipient (21610) nor another 4xx', () => {
    expect(classifyTwilioRefusal(400, 21610)).toEqual({ permanent: true, recipientUnreachable: false });
    expect(classifyTwilioRefusal(400, undefined)).toEqual({ permanent: true, recipientUnreachable: false });
    expect(classifyTwilioRefusal(404, 20404)).toEqual({ permanent: true, recipientUnreachable: false });
  });

  it('retries rate limits, the provider failing, timeouts and refused credentials', () => {
    for (const status of [401, 403, 408, 429, 500, 502, 503, 504]) {
      expect(classifyTwilioRefusal(status, undefined), String(status)).toEqual({ permanent: false, recipientUnreachable: false });
    }
  });
});
