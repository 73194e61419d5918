import { describe, expect, it } from 'vitest';
import { twilioUrlVariants } from './verifiers.js';

describe('twilioUrlVariants', () => {
  it('gives the URL without and with its port', () => {
    expect(twilioUrlVariants('https://a.example/p?q=1')).toEqual([
      'https://a.example/p?q=1',
      'https://a.example:443/p?q=1',
    ]);
    expect(twilioUrlVariants('http://a.example')).toEqual(['http://a.example', 'http://a.example:80']);
    expect(twilioUrlVariants('HTTPS://a.example/')).toEqual(['HTTPS://a.example/', 'HTTPS://a.example:443/']);
    expect(twilioUrlVariants('https://a.example:8443/p')).toEqual([
      'https://a.example/p',
      'https://a.example:8443/p',
    ]);
    expect(twilioUrlVariants('https://a.example:/p')).toEqual([
      'https://a.example/p',
      'https://a.example:443/p',
    ]);
  });

  it('keeps userinfo, IPv6 hosts, fragments and the query string untouched', () => {
    expect(twilioUrlVariants('https://u:p@a.example:99/x?y=a:b#f')).toEqual([
      'https://u:p@a.example/x?y=a:b#f',
      'https://u:p@a.example:99/x?y=a:b#f',
    ]);
    expect(twilioUrlVariants('https://[2001:db8::1]/x')).toEqual([
      'https://[2001:db8::1]/x',
      'https://[2001:db8::1]:443/x',
    ]);
    expect(twilioUrlVariants('https://[2001:db8::1]:8443/x')).toEqual([
      'https://[2001:db8::1]/x',
      'https://[2001:db8::1]:8443/x',
    ]);
  });

  it('leaves a URL without an authority alone', () => {
    expect(twilioUrlVariants('mailto:a@b.example')).toEqual(['mailto:a@b.example']);
  });
});
