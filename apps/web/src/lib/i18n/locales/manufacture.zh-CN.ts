/** zh-CN texts of the factory bench (`/manufacture/device`), merged into zh-CN.ts. */
const manufactureZhCN = {
  'validation.controllerSerial': '控制器序列号为 4–40 位字母、数字或 . _ -',
  'validation.mqttUrl': 'MQTT 地址格式错误',
  'validation.secret': '密钥长度应为 16–200 位',
  'validation.scale': '倍率不能为 0，绝对值应在 0.000001 到 1000000 之间',
  'validation.conversionKey': '字段名以小写字母开头，只含字母和数字，最多 32 位',
  'validation.byteOrder': '字节序与数据类型不符',
  'validation.duplicate': '不能重复',
  'validation.pairingCode': '配对码为 8 位字母或数字',
} as const;

export type ManufactureKey = keyof typeof manufactureZhCN;
export default manufactureZhCN;
