import type { ConditionKey } from './condition.zh-CN.ts';

/** ru-RU texts of the lift health page and the lift page's condition card; the key set is that of condition.zh-CN.ts. */
const conditionRuRU: Record<ConditionKey, string> = {
  'condition.title': 'Состояние лифтов',
  'condition.intro':
    'Лифты, чья оценка низкая или падает, с главной причиной и датой визита. Оценка считается по каждому фактору из того, что сообщают лифты.',
  'condition.lift': 'Лифт',
  'condition.score': 'Оценка',
  'condition.mainReason': 'Главная причина',
  'condition.visit': 'Визит до',
  'condition.fellBy': 'упала на {{points}} за 14 дней',
  'condition.empty': 'Нет лифтов с падающей оценкой',
  'condition.open': 'Открыть лифт',
  'condition.card.title': 'Состояние',
  'condition.card.notYet': 'Оценки ещё нет (считается раз в 10 минут)',
  'condition.card.history': 'За 30 дней',
  'condition.card.computedAt': 'Рассчитано {{time}}',
  'condition.card.proposal': 'Визит до {{date}}: {{reason}}',
  'condition.points': '−{{points}} балл.',
  'condition.baseline.lift': 'своя база',
  'condition.baseline.kind': 'база по умолчанию',
  'condition.state.ok': 'Норма',
  'condition.state.worse': 'Хуже',
  'condition.state.learning': 'Обучение',
  'condition.failedParts': '; последний тест не пройден: {{parts}}',
  'condition.factor.batteryCharge': 'Заряд батареи',
  'condition.factor.chargingTime': 'Время зарядки',
  'condition.factor.voltageSag': 'Просадка напряжения',
  'condition.factor.travelTime': 'Время поездки',
  'condition.factor.faults': 'Повтор неисправностей',
  'condition.factor.overloads': 'Перегрузки',
  'condition.factor.flapPedal': 'Сбои аппарели и педали',
  'condition.factor.alarmTests': 'Самотесты аварийной связи',
  'condition.reason.batteryCharge.ok':
    'Контрольное значение {{value}} % от зарядного (база {{baseline}} %)',
  'condition.reason.batteryCharge.worse':
    'Контрольное значение {{value}} % от зарядного, на {{percent}} % ниже базы {{baseline}} %',
  'condition.reason.batteryCharge.learning': 'Пока мало данных о зарядке',
  'condition.reason.chargingTime.ok': 'Полная зарядка {{value}} мин (база {{baseline}} мин)',
  'condition.reason.chargingTime.worse':
    'Полная зарядка {{value}} мин, на {{percent}} % дольше базы {{baseline}} мин',
  'condition.reason.chargingTime.learning': 'Полной зарядки пока не было',
  'condition.reason.voltageSag.ok':
    'Напряжение в поездке падает на {{value}} В (база {{baseline}} В)',
  'condition.reason.voltageSag.worse':
    'Напряжение в поездке падает на {{value}} В, на {{percent}} % больше базы {{baseline}} В',
  'condition.reason.voltageSag.learning': 'Пока мало данных о напряжении',
  'condition.reason.travelTime.ok':
    'Поездка {{from}}→{{to}}: {{value}} с (база лифта {{baseline}} с)',
  'condition.reason.travelTime.worse':
    'Поездка {{from}}→{{to}}: {{value}} с, на {{percent}} % дольше базы лифта {{baseline}} с',
  'condition.reason.travelTime.learning': 'Изучаем время поездок лифта (первые две недели)',
  'condition.reason.faults.ok': '{{value}} неиспр. за {{days}} дн. (обычно {{baseline}})',
  'condition.reason.faults.worse':
    '{{value}} неиспр. за {{days}} дн., чаще всего {{code}} (обычно {{baseline}})',
  'condition.reason.faults.learning': 'Пока мало данных о неисправностях',
  'condition.reason.overloads.ok': '{{value}} перегрузок на 100 поездок (обычно {{baseline}})',
  'condition.reason.overloads.worse':
    '{{count}} перегрузок, {{value}} на 100 поездок (обычно {{baseline}})',
  'condition.reason.overloads.learning': 'Пока мало поездок',
  'condition.reason.flapPedal.ok':
    'Сигналы аппарели или педали: {{value}} в день (обычно {{baseline}})',
  'condition.reason.flapPedal.worse':
    'Датчик аппарели или педали: {{value}} сигналов в день (всего {{count}}), обычно {{baseline}}',
  'condition.reason.flapPedal.learning': 'Пока мало данных датчиков',
  'condition.reason.alarmTests.ok': 'Последний успешный самотест {{value}} ч назад',
  'condition.reason.alarmTests.worse':
    'Последний успешный самотест {{value}} ч назад (нужен каждые {{baseline}} ч)',
  'condition.reason.alarmTests.learning': 'Устройство аварийной связи ещё не сообщало',
};

export default conditionRuRU;
