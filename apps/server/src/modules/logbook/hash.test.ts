import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, canonicalJson, entryHash } from './hash.ts';

/** The hash rule of docs/logbook.md, checked against a value computed outside this code (Python's hashlib over the literal text). */
describe('logbook hash', () => {
  const fields = {
    liftId: '6f1c0d6e-2b1a-4c55-9a57-0d2f3b1e9a10',
    seq: 1,
    ts: '2026-11-24T22:41:07.512Z',
    kind: 'command' as const,
    actor: { id: null, name: null },
    // Keys in no particular order, a nested object, non-ASCII letters and quotes.
    data: { note: 'Ünï "q"', name: 'summon', args: { floor: 2 } },
    prevHash: GENESIS_HASH,
  };

  it('serialises with sorted keys at every level and no whitespace', () => {
    expect(canonicalJson(fields)).toBe(
      '{"actor":{"id":null,"name":null},"data":{"args":{"floor":2},"name":"summon","note":"Ünï \\"q\\""},"kind":"command","liftId":"6f1c0d6e-2b1a-4c55-9a57-0d2f3b1e9a10","prevHash":"0000000000000000000000000000000000000000000000000000000000000000","seq":1,"ts":"2026-11-24T22:41:07.512Z"}',
    );
  });

  it('is the SHA-256 of that text, in lowercase hex', () => {
    expect(entryHash(fields)).toBe(
      '6da53b9a1c91959b7ef6043a2d0b42265763ab0f3470ddf9e671ed76ec07f320',
    );
  });

  it('changes with any field, and leaves out keys whose value is undefined', () => {
    expect(entryHash({ ...fields, seq: 2 })).not.toBe(entryHash(fields));
    expect(entryHash({ ...fields, data: { ...fields.data, gone: undefined } })).toBe(
      entryHash(fields),
    );
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/finite/);
  });
});
