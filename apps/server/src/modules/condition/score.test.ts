import { describe, expect, it } from 'vitest';
import { conditionFactors, conditionScore, type Figures, type LiftInputs } from './score.ts';

const figures = (over: Partial<Figures> = {}): Figures => ({
  days: 2,
  chargeRatio: 1,
  chargeSeconds: 600,
  sag: 1,
  trips: 40,
  overloads: 0,
  flapPedal: 0,
  faults: 0,
  topFault: null,
  travel: [{ from: 1, to: 2, trips: 20, seconds: 14 }],
  ...over,
});
const inputs = (measured: Partial<Figures>, baseline: Partial<Figures> | null = {}): LiftInputs => ({
  measured: figures(measured),
  baseline: baseline ? figures({ days: 14, ...baseline }) : null,
  chargeRatioPercent: 100,
  alarmHours: 3,
  alarmFailed: null,
});
const byId = (list: ReturnType<typeof conditionFactors>) => Object.fromEntries(list.map((f) => [f.id, f]));

describe('the condition score', () => {
  it('a lift like its baseline scores 100 and is not listed', () => {
    const result = conditionScore(conditionFactors(inputs({})), null);
    expect(result).toMatchObject({ score: 100, mainFactor: null, listed: false, visitInDays: null });
  });

  it('travel 1→2 in 17.36 s against 14 s: 24 % drift is half-way from 8 % to 40 %: sub-score 50, 22.5 of 45 points', () => {
    const f = byId(conditionFactors(inputs({ travel: [{ from: 1, to: 2, trips: 5, seconds: 17.36 }] })));
    expect(f.travelTime).toMatchObject({ state: 'worse', score: 50, points: 22.5, value: 17.36, baseline: 14, baselineFrom: 'lift' });
    expect(f.travelTime!.reason).toEqual({ key: 'travelTime.worse', params: { from: 1, to: 2, value: 17.4, baseline: 14, percent: 24 } });
    const result = conditionScore(conditionFactors(inputs({ travel: [{ from: 1, to: 2, trips: 5, seconds: 17.36 }] })), 100);
    // 100 − 22.5 = 77.5 → 78: not below 65, but 22 points below the best of 14 days
    expect(result).toMatchObject({ score: 78, mainFactor: 'travelTime', listed: true, fellBy: 22, visitInDays: 14 });
  });

  it('too few trips of a pair, or no baseline weeks yet, leave travel learning with no points', () => {
    expect(byId(conditionFactors(inputs({ travel: [{ from: 1, to: 2, trips: 2, seconds: 30 }] }))).travelTime).toMatchObject({ state: 'learning', points: 0 });
    const young = byId(conditionFactors(inputs({ travel: [{ from: 1, to: 2, trips: 9, seconds: 30 }] }, null)));
    expect(young.travelTime).toMatchObject({ state: 'learning', points: 0, baselineFrom: null });
    // the battery then compares with the configured charge ratio, the sag with the default 2.5 V
    expect(young.batteryCharge).toMatchObject({ baseline: 1, baselineFrom: 'kind', state: 'ok' });
    expect(young.voltageSag).toMatchObject({ baseline: 2.5, baselineFrom: 'kind', state: 'ok' });
  });

  it('a worn battery below 65 is listed with a visit sooner the lower the score', () => {
    // ratio 0.9 against 1: 10 % ≥ 8 % → 0 (35 points); sag 1.8 V against 1 V: 80 % → 0 (30 points)
    const result = conditionScore(conditionFactors(inputs({ chargeRatio: 0.9, sag: 1.8 })), null);
    expect(result).toMatchObject({ score: 35, mainFactor: 'batteryCharge', listed: true, fellBy: null, visitInDays: 5 });
  });

  it('an alarm device 72 h without a passed test takes all 40 points; a failed last test too, naming the parts', () => {
    const late = byId(conditionFactors({ ...inputs({}), alarmHours: 72 }));
    expect(late.alarmTests).toMatchObject({ score: 0, points: 40, value: 72, baseline: 24 });
    // 60 h: 36 h over the daily test, from 4 to 48 → 100 × (1 − 32 / 44) = 27, 29.2 points
    expect(byId(conditionFactors({ ...inputs({}), alarmHours: 60 })).alarmTests).toMatchObject({ score: 27, points: 29.2 });
    const failed = byId(conditionFactors({ ...inputs({}), alarmHours: 2, alarmFailed: ['speechLine'] }));
    expect(failed.alarmTests).toMatchObject({ score: 0, points: 40, reason: { key: 'alarmTests.worse', params: { failed: 'speechLine' } } });
    // 26 h: 2 h over the daily test is within the tolerance of 4 h
    expect(byId(conditionFactors({ ...inputs({}), alarmHours: 26 })).alarmTests).toMatchObject({ score: 100, points: 0 });
  });

  it('flap anomalies count per day above the baseline rate', () => {
    // 30 in 2 days = 15 a day against 14 in 14 days = 1 a day: 14 over, from 2 to 20 → 33, 26.8 of 40 points
    const f = byId(conditionFactors(inputs({ flapPedal: 30 }, { flapPedal: 14 })));
    expect(f.flapPedal).toMatchObject({ value: 15, baseline: 1, score: 33, points: 26.8 });
  });
});
