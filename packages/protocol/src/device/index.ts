export * from './kinds.ts';
export * from './status.ts';
export * from './events.ts';
export * from './commands.ts';
export * from './config.ts';
export * from './texts.ts';
export * from './control.ts';
