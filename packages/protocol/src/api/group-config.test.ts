import { describe, expect, it } from 'vitest';
import { GROUP_CONFIG_MAX_LIFTS, groupConfigChangesSchema, groupConfigSelectionSchema, groupConfigSendRequestSchema } from './group-config.ts';

const liftId = '5f0c1f9e-0c55-4a33-9d0e-62f4a1f0a001';
const send = { idempotencyKey: 'abcdefghijklmnop', selection: { kinds: ['inclined2dRack'] }, changes: { voiceLanguage: 'en' }, versions: { [liftId]: 3 } };
const messages = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => (r.success ? [] : r.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`));

describe('group configuration schemas', () => {
  it('takes a reviewed send of configuration fields', () => {
    expect(groupConfigSendRequestSchema.safeParse(send).success).toBe(true);
  });

  it('cannot carry a command: no name, args or command beside the configuration', () => {
    for (const extra of [{ name: 'summon', args: { floor: 2 } }, { command: 'summon' }, { kind: 'cmd' }]) {
      const r = groupConfigSendRequestSchema.safeParse({ ...send, ...extra });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.code).toBe('unrecognized_keys');
    }
    // Nor inside the changes: a command is no configuration field.
    expect(groupConfigChangesSchema.safeParse({ summon: 2 }).error!.issues[0]!.code).toBe('unrecognized_keys');
  });

  it('checks each changed value with the one configuration schema', () => {
    expect(messages(groupConfigChangesSchema.safeParse({ rapidSpeed: 151 }))).toEqual(['rapidSpeed:validation.max']);
    expect(messages(groupConfigChangesSchema.safeParse({ parkingMemory1: 100 }))).toEqual(['parkingMemory1:validation.minConfigured']);
    expect(messages(groupConfigChangesSchema.safeParse({ voiceLanguage: 'fr' }))).toEqual(['voiceLanguage:validation.invalid']);
    expect(messages(groupConfigChangesSchema.safeParse({}))).toEqual([':groupConfig.noChanges']);
  });

  it('needs at least one criterion and caps the lifts reached', () => {
    expect(messages(groupConfigSelectionSchema.safeParse({}))).toEqual(['kinds:groupConfig.noCriterion']);
    expect(messages(groupConfigSelectionSchema.safeParse({ kinds: [], sites: [] }))).toEqual(['kinds:groupConfig.noCriterion']);
    expect(groupConfigSelectionSchema.safeParse({ sites: ['Library'] }).success).toBe(true);
    const tooMany = Object.fromEntries(Array.from({ length: GROUP_CONFIG_MAX_LIFTS + 1 }, (_, i) => [`5f0c1f9e-0c55-4a33-9d0e-${String(i).padStart(12, '0')}`, 0]));
    expect(messages(groupConfigSendRequestSchema.safeParse({ ...send, versions: tooMany }))).toEqual(['versions:groupConfig.tooMany']);
    expect(messages(groupConfigSendRequestSchema.safeParse({ ...send, versions: {} }))).toEqual(['versions:groupConfig.noLifts']);
  });
});
