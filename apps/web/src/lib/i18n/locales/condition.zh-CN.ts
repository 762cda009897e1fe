/** zh-CN texts of the lift health page and the lift page's condition card; the reference key set of condition.*.ts. */
const conditionZhCN = {
  'condition.title': '设备健康',
  'condition.intro':
    '得分下降或偏低的设备，附主要原因和建议的上门日期。得分由设备已上报的数据逐项计算。',
  'condition.lift': '设备',
  'condition.score': '健康得分',
  'condition.mainReason': '主要原因',
  'condition.visit': '建议上门',
  'condition.fellBy': '14 天内下降 {{points}} 分',
  'condition.empty': '没有得分下降的设备',
  'condition.open': '查看设备',
  'condition.card.title': '设备健康',
  'condition.card.notYet': '尚未计算得分（每 10 分钟计算一次）',
  'condition.card.history': '近 30 天',
  'condition.card.computedAt': '计算于 {{time}}',
  'condition.card.proposal': '建议在 {{date}} 前上门：{{reason}}',
  'condition.points': '-{{points}} 分',
  'condition.baseline.lift': '本机基线',
  'condition.baseline.kind': '默认基线',
  'condition.state.ok': '正常',
  'condition.state.worse': '变差',
  'condition.state.learning': '学习中',
  'condition.failedParts': '；上次自检失败：{{parts}}',
  'condition.factor.batteryCharge': '电池充电值',
  'condition.factor.chargingTime': '充电时间',
  'condition.factor.voltageSag': '运行压降',
  'condition.factor.travelTime': '运行时间',
  'condition.factor.faults': '故障重复',
  'condition.factor.overloads': '超载',
  'condition.factor.flapPedal': '翻板与踏板异常',
  'condition.factor.alarmTests': '报警装置自检',
  'condition.reason.batteryCharge.ok': '检测值为充电值的 {{value}}%（基线 {{baseline}}%）',
  'condition.reason.batteryCharge.worse':
    '检测值为充电值的 {{value}}%，比基线 {{baseline}}% 低 {{percent}}%',
  'condition.reason.batteryCharge.learning': '充电数据还不够',
  'condition.reason.chargingTime.ok': '充满需 {{value}} 分钟（基线 {{baseline}} 分钟）',
  'condition.reason.chargingTime.worse':
    '充满需 {{value}} 分钟，比基线 {{baseline}} 分钟长 {{percent}}%',
  'condition.reason.chargingTime.learning': '还没有完整的充电记录',
  'condition.reason.voltageSag.ok': '运行时电压下降 {{value}} V（基线 {{baseline}} V）',
  'condition.reason.voltageSag.worse':
    '运行时电压下降 {{value}} V，比基线 {{baseline}} V 多 {{percent}}%',
  'condition.reason.voltageSag.learning': '运行电压数据还不够',
  'condition.reason.travelTime.ok':
    '{{from}}→{{to}} 层运行 {{value}} 秒（本机基线 {{baseline}} 秒）',
  'condition.reason.travelTime.worse':
    '{{from}}→{{to}} 层运行 {{value}} 秒，比本机基线 {{baseline}} 秒多 {{percent}}%',
  'condition.reason.travelTime.learning': '正在学习本机的运行时间（前两周）',
  'condition.reason.faults.ok': '{{days}} 天内 {{value}} 次故障（通常 {{baseline}} 次）',
  'condition.reason.faults.worse':
    '{{days}} 天内 {{value}} 次故障，最多为 {{code}}（通常 {{baseline}} 次）',
  'condition.reason.faults.learning': '故障数据还不够',
  'condition.reason.overloads.ok': '每 100 次运行超载 {{value}} 次（通常 {{baseline}} 次）',
  'condition.reason.overloads.worse':
    '超载 {{count}} 次，每 100 次运行 {{value}} 次（通常 {{baseline}} 次）',
  'condition.reason.overloads.learning': '运行数据还不够',
  'condition.reason.flapPedal.ok': '翻板/踏板信号每天 {{value}} 次（通常 {{baseline}} 次）',
  'condition.reason.flapPedal.worse':
    '翻板或踏板传感器每天报 {{value}} 次（共 {{count}} 次），通常 {{baseline}} 次',
  'condition.reason.flapPedal.learning': '传感器数据还不够',
  'condition.reason.alarmTests.ok': '上次通过的自检在 {{value}} 小时前',
  'condition.reason.alarmTests.worse':
    '上次通过的自检在 {{value}} 小时前（应每 {{baseline}} 小时一次）',
  'condition.reason.alarmTests.learning': '报警装置尚未上报',
};

export type ConditionKey = keyof typeof conditionZhCN;
export default conditionZhCN;
