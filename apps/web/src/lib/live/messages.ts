/**
 * The live socket's messages are defined once, in `@liftlink/protocol` (`api/live.ts`);
 * these names stay for the pages that import them from here.
 */
export type { AlertView as AlertItem, FleetLiveMessage, LiftLiveMessage } from '@liftlink/protocol';
