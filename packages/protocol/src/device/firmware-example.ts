/** Test data shared by the firmware tests (not exported from the package). */
import type { FirmwareManifest } from './firmware.ts';

/** The manifest of docs/protocol.md section 11: lift LL-0042, offer 17, FW-1.5.0 over FW-1.2.0 or later. */
export const EXAMPLE_MANIFEST: FirmwareManifest = {
  v: 1,
  campaignId: '5f0c2a4e-8d1b-4c3a-9e77-2b6f1d0a9c31',
  packageId: '0b6e9a57-3c2d-4f81-a0e4-7d5c9b1e2f60',
  deviceNo: 'LL-0042',
  seq: 17,
  kinds: ['inclinedStraightRack', 'inclined2dRack'],
  version: 'FW-1.5.0',
  minVersion: 'FW-1.2.0',
  size: 1_048_576,
  sha256: '30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58',
  url: '/api/iot/firmware/0b6e9a57-3c2d-4f81-a0e4-7d5c9b1e2f60/image',
  token: 'Zx8kQ2pV7mN4rT1yW6bH3cJ9dF5gL0sA',
  tokenExpiresAt: '2026-03-02T08:00:00.000Z',
  issuedAt: '2026-03-01T08:00:00.000Z',
  window: { start: '2026-03-01T18:00:00.000Z', end: '2026-03-02T06:00:00.000Z' },
};
