import { beforeAll, describe, expect, it } from 'vitest';
import { configField, defaultConfig, type LiftConfig } from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import {
  changedMeanwhile,
  configWorkflow,
  dependenciesOf,
  initialWorkflow,
  issuesOnFields,
  prepareReview,
  sendFailure,
  type ConfigAction,
  type ConfigWorkflow,
} from './config-workflow.ts';

const FLOORS = 2;
const current: LiftConfig = defaultConfig('inclinedStraightRack', FLOORS);

/** The state after a run of actions from a lift at configuration version 3. */
const after = (...actions: ConfigAction[]): ConfigWorkflow =>
  actions.reduce(configWorkflow, initialWorkflow(3));

beforeAll(useEnglish);

describe('configuration workflow (spec section 4)', () => {
  it('goes editing disabled -> enabled -> saved, and cancel disables editing again', () => {
    expect(after().flow).toBe('disabled');
    expect(after({ type: 'edit', version: 3 })).toMatchObject({ flow: 'enabled', editVersion: 3 });
    const review = { config: { ...current, rapidSpeed: 100 }, changes: [] };
    expect(after({ type: 'edit', version: 3 }, { type: 'review', review })).toMatchObject({
      flow: 'enabled',
      review,
    });
    expect(
      after({ type: 'edit', version: 3 }, { type: 'review', review }, { type: 'saved' }),
    ).toMatchObject({ flow: 'saved', review: null });
    expect(after({ type: 'edit', version: 3 }, { type: 'cancel' }).flow).toBe('disabled');
  });

  it('warns when the lift was reconfigured by someone else during the edit', () => {
    const editing = after({ type: 'edit', version: 3 });
    expect(changedMeanwhile(editing, 3)).toBe(false);
    expect(changedMeanwhile(editing, 4)).toBe(true);
    // Not while only looking at it.
    expect(changedMeanwhile(after(), 4)).toBe(false);
  });

  it('an imported file opens the edit with its difference for review; a bad one only explains', () => {
    const problem = { error: 'config.file.mismatch', issues: [] };
    const failed = after({ type: 'importFailed', problem });
    expect(failed).toMatchObject({ flow: 'disabled', importProblem: problem, review: null });
    const review = { config: current, changes: [] };
    const imported = configWorkflow(failed, { type: 'imported', version: 5, review });
    expect(imported).toEqual({ flow: 'enabled', editVersion: 5, review, importProblem: null });
    expect(
      after({ type: 'importFailed', problem }, { type: 'edit', version: 3 }).importProblem,
    ).toBe(null);
  });

  it('reviews only a configuration that passes the shared rules, with the changed fields', () => {
    const bad = prepareReview(current, { ...current, rapidSpeed: 999 }, FLOORS);
    expect('issues' in bad && bad.issues.map((i) => i.path)).toContain('rapidSpeed');
    const good = prepareReview(current, { ...current, rapidSpeed: 100 }, FLOORS);
    expect('review' in good && good.review.changes).toEqual([
      { key: 'rapidSpeed', before: current.rapidSpeed, after: 100 },
    ]);
  });

  it("puts the server's and the lift's issues on the fields, the first one to show", () => {
    const { fields, first } = issuesOnFields([
      { path: 'config.slowSpeed', message: 'validation.max', params: { max: 40 } },
      { path: 'ratedLoad', message: 'validation.manufacturerOnly' },
      { path: 'notAField', message: 'validation.required' },
    ]);
    expect(fields).toEqual([
      { name: 'slowSpeed', errors: ['Must be at or below 40'] },
      { name: 'ratedLoad', errors: [expect.any(String) as string] },
    ]);
    expect(first?.key).toBe('slowSpeed');
    expect(issuesOnFields([]).first).toBeUndefined();
  });

  it('a configured lift asks to confirm reconfiguration; a refusal names its reason and issues', () => {
    expect(sendFailure(new ApiError(409, 'config.reconfigure', 'configured'))).toEqual({
      kind: 'reconfigure',
    });
    const slow = { path: 'slowSpeed', message: 'validation.max', params: { max: 40 } };
    expect(
      sendFailure(
        new ApiError(409, 'lift.refused', 'refused', {
          state: 'rejected',
          reason: 'configInvalid',
          issues: [slow],
        }),
      ),
    ).toEqual({ kind: 'failed', issues: [slow], notice: { refused: 'configInvalid' } });
    const load = { path: 'config.ratedLoad', message: 'validation.required' };
    expect(sendFailure(new ApiError(400, 'validation.failed', 'bad', { issues: [load] }))).toEqual({
      kind: 'failed',
      issues: [load],
      notice: 'saveFailed',
    });
    expect(sendFailure(new ApiError(0, 'request.network', 'Network error'))).toEqual({
      kind: 'failed',
      issues: [],
      notice: 'error',
    });
    expect(sendFailure(new TypeError('x'))).toMatchObject({ kind: 'failed', notice: 'error' });
  });

  it('re-checks a speed or parking field when the field its rule reads changes', () => {
    expect(dependenciesOf(configField('rapidSpeed')!)).toEqual(['speedLimit']);
    expect(dependenciesOf(configField('slowSpeed')!)).toEqual(['rapidSpeed']);
    expect(dependenciesOf(configField('parkingMemory1')!)).toEqual(['lowValue', 'highValue']);
    expect(dependenciesOf(configField('parkingMemory2')!)).toEqual(['parkingMemory1', 'highValue']);
    expect(dependenciesOf(configField('ratedLoad')!)).toEqual([]);
  });
});
