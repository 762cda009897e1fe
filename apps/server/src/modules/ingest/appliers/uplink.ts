import type { AlarmMessage, CmdAckMessage, ConfigReportMessage, EventMessage, FirmwareStateMessage, PresenceMessage, StatusMessage } from '@liftlink/protocol';
import type { SqlExecutor } from '../../../db/client.ts';

/** One lift message as ingest hands it to the store, its lift already known. */
export type UplinkMessage =
  | { kind: 'status'; liftId: string; message: StatusMessage }
  | { kind: 'event'; liftId: string; message: EventMessage }
  | { kind: 'presence'; liftId: string; message: PresenceMessage }
  | { kind: 'config/report'; liftId: string; message: ConfigReportMessage }
  | { kind: 'cmd/ack'; liftId: string; message: CmdAckMessage }
  | { kind: 'alarm'; liftId: string; message: AlarmMessage }
  | { kind: 'firmware/state'; liftId: string; message: FirmwareStateMessage }
  /** The embedded broker saw the lift's connection close (its will is not routed to ingest there). */
  | { kind: 'disconnect'; liftId: string; at: Date };

export type UplinkOf<K extends UplinkMessage['kind']> = Extract<UplinkMessage, { kind: K }>;

/** The batch's transaction. */
export type Tx = Omit<SqlExecutor, 'transaction'>;
