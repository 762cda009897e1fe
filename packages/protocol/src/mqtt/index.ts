export * from './topics.ts';
export * from './payloads.ts';
