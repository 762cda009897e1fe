export * from './topics.ts';
export * from './payloads.ts';
export * from './reconnect.ts';
export * from './broker-address.ts';
export * from './no-delay.ts';
