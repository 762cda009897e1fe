export * from './crc16.ts';
export * from './frame.ts';
export * from './messages.ts';
export * from './client.ts';
export * from './bridge.ts';
export * from './manufacture-api.ts';
