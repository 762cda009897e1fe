import type { FirmwarePackage } from '@liftlink/protocol';
import { expect } from 'vitest';
import { body, client, type TestApp } from '../helpers.ts';

/**
 * A package of the caller's manufacturer, created and its image uploaded through the API as
 * an engineer does: for inclined rack lifts, installing over FW-1.0.0.
 */
export async function readyPackage(
  t: TestApp,
  token: string,
  version: string,
  image: Buffer,
): Promise<FirmwarePackage> {
  const created = await client(t.app, token).post('/auth/access/firmware/packages/create', {
    kinds: ['inclinedStraightRack'],
    version,
    minVersion: 'FW-1.0.0',
    releaseNotes: { 'en-US': 'Gentler stop' },
  });
  expect(created.statusCode, created.body).toBe(200);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/auth/access/firmware/packages/upload?id=${body<FirmwarePackage>(created).result.id}`,
    headers: { 'access-token': token, 'content-type': 'application/octet-stream' },
    payload: image,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  return body<FirmwarePackage>(uploaded).result;
}
