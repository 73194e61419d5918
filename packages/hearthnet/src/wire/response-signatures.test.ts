import { describe, expect, it } from 'vitest';
import { CAPABILITY_CATALOGUE } from '../capabilities/index.js';
import { isResponseSignatureMandatory } from './envelope.js';

describe('isResponseSignatureMandatory (contract §5.2)', () => {
  it('names exactly the mutating capabilities of the catalogue', () => {
    const mandatory = CAPABILITY_CATALOGUE.map((d) => d.name).filter(isResponseSignatureMandatory);
    expect(mandatory.sort()).toEqual([
      'chat.send',
      'community.invite',
      'community.revoke',
      'market.expire',
      'market.post',
      'rag.ingest',
    ]);
  });

  it('applies the suffix rule to names outside the catalogue', () => {
    expect(isResponseSignatureMandatory('experimental.notes.post')).toBe(true);
    expect(isResponseSignatureMandatory('post')).toBe(false);
    expect(isResponseSignatureMandatory('experimental.poster')).toBe(false);
  });
});
