export * from './lift-machine.ts';
export * from './mqtt-lift.ts';
export * from './fleet.ts';
export * from './random.ts';
