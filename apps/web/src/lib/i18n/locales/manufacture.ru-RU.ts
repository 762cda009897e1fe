import type { ManufactureKey } from './manufacture.zh-CN.ts';

/** ru-RU texts of the factory bench, merged into ru-RU.ts. */
const manufactureRuRU: Record<ManufactureKey, string> = {
  'validation.controllerSerial': 'Серийный номер контроллера: 4–40 букв, цифр или . _ -',
  'validation.mqttUrl': 'Неверный адрес MQTT',
  'validation.secret': 'Длина секрета: от 16 до 200 символов',
  'validation.scale': 'Множитель не может быть 0; по модулю от 0,000001 до 1000000',
  'validation.conversionKey': 'Имя поля начинается со строчной буквы: до 32 букв и цифр',
  'validation.byteOrder': 'Порядок байтов не подходит к типу данных',
  'validation.duplicate': 'Не должно повторяться',
  'validation.pairingCode': 'Код сопряжения: 8 букв или цифр',
};

export default manufactureRuRU;
