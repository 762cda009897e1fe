import type { ConditionKey } from './condition.zh-CN.ts';

/** en-US texts of the lift health page and the lift page's condition card; the key set is that of condition.zh-CN.ts. */
const conditionEnUS: Record<ConditionKey, string> = {
  'condition.title': 'Lift health',
  'condition.intro':
    'Lifts whose score is low or falling, with the main reason and a proposed visit. The score is computed factor by factor from what the lifts report.',
  'condition.lift': 'Lift',
  'condition.score': 'Health score',
  'condition.mainReason': 'Main reason',
  'condition.visit': 'Proposed visit',
  'condition.fellBy': 'fell {{points}} points in 14 days',
  'condition.empty': 'No lift is falling',
  'condition.open': 'Open lift',
  'condition.card.title': 'Lift health',
  'condition.card.notYet': 'No score yet (computed every 10 minutes)',
  'condition.card.history': 'Last 30 days',
  'condition.card.computedAt': 'Computed at {{time}}',
  'condition.card.proposal': 'Visit proposed by {{date}}: {{reason}}',
  'condition.points': '−{{points}} pts',
  'condition.baseline.lift': 'own baseline',
  'condition.baseline.kind': 'default baseline',
  'condition.state.ok': 'OK',
  'condition.state.worse': 'Worse',
  'condition.state.learning': 'Learning',
  'condition.failedParts': '; the last self-test failed: {{parts}}',
  'condition.factor.batteryCharge': 'Battery charge value',
  'condition.factor.chargingTime': 'Charging time',
  'condition.factor.voltageSag': 'Voltage sag in trips',
  'condition.factor.travelTime': 'Travel time',
  'condition.factor.faults': 'Fault recurrence',
  'condition.factor.overloads': 'Overloads',
  'condition.factor.flapPedal': 'Flap and pedal anomalies',
  'condition.factor.alarmTests': 'Alarm self-tests',
  'condition.reason.batteryCharge.ok':
    'Check value {{value}} % of the charge value (baseline {{baseline}} %)',
  'condition.reason.batteryCharge.worse':
    'Check value {{value}} % of the charge value, {{percent}} % below the baseline of {{baseline}} %',
  'condition.reason.batteryCharge.learning': 'Not enough charging figures yet',
  'condition.reason.chargingTime.ok':
    'A full charge takes {{value}} min (baseline {{baseline}} min)',
  'condition.reason.chargingTime.worse':
    'A full charge takes {{value}} min, {{percent}} % longer than the baseline of {{baseline}} min',
  'condition.reason.chargingTime.learning': 'No complete charge seen yet',
  'condition.reason.voltageSag.ok':
    'Voltage sags {{value}} V during trips (baseline {{baseline}} V)',
  'condition.reason.voltageSag.worse':
    'Voltage sags {{value}} V during trips, {{percent}} % more than the baseline of {{baseline}} V',
  'condition.reason.voltageSag.learning': 'Not enough trip voltages yet',
  'condition.reason.travelTime.ok':
    'Travel {{from}}→{{to}} takes {{value}} s (this lift’s baseline {{baseline}} s)',
  'condition.reason.travelTime.worse':
    'Travel {{from}}→{{to}} takes {{value}} s, {{percent}} % above this lift’s baseline of {{baseline}} s',
  'condition.reason.travelTime.learning': 'Learning this lift’s travel times (its first two weeks)',
  'condition.reason.faults.ok': '{{value}} faults in {{days}} days (usually {{baseline}})',
  'condition.reason.faults.worse':
    '{{value}} faults in {{days}} days, most often {{code}} (usually {{baseline}})',
  'condition.reason.faults.learning': 'Not enough fault figures yet',
  'condition.reason.overloads.ok': '{{value}} overloads per 100 trips (usually {{baseline}})',
  'condition.reason.overloads.worse':
    '{{count}} overloads, {{value}} per 100 trips (usually {{baseline}})',
  'condition.reason.overloads.learning': 'Not enough trips yet',
  'condition.reason.flapPedal.ok':
    'Flap or pedal signals {{value}} times a day (usually {{baseline}})',
  'condition.reason.flapPedal.worse':
    'Flap or pedal sensor signalled {{value}} times a day ({{count}} in all), usually {{baseline}}',
  'condition.reason.flapPedal.learning': 'Not enough sensor figures yet',
  'condition.reason.alarmTests.ok': 'Last passed self-test {{value}} h ago',
  'condition.reason.alarmTests.worse':
    'Last passed self-test {{value}} h ago (expected every {{baseline}} h)',
  'condition.reason.alarmTests.learning': 'The alarm device has not reported yet',
};

export default conditionEnUS;
