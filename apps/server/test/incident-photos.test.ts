import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INCIDENT_PHOTO_BYTES } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/** A real 2×2 PNG (red, green / blue, white), built here so its bytes are exact. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** The first bytes of a JPEG (SOI, a JFIF APP0 segment) and filler: the server checks the start only. */
function jpeg(): Buffer {
  const head = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const fill = Buffer.alloc(4096);
  for (let i = 0; i < fill.length; i++) fill[i] = (i * 31) & 0xff;
  return Buffer.concat([head, fill, Buffer.from([0xff, 0xd9])]);
}

/**
 * Photos on incidents (docs/service.md): the image is the request's body, recognised by its
 * bytes, stored and served back exactly; refusals store nothing; scope and permission hold.
 */
describe.each(DB_KINDS)('incident photos on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  const ids: Record<string, string> = {};
  let tech: { id: string; token: string; username: string };
  let viewer: { token: string };
  let far: { token: string };
  let noIncident: string;
  let incidentId: number;

  const upload = (token: string, id: number, data: Buffer, contentType = 'image/jpeg') =>
    t.app.inject({ method: 'POST', url: `/auth/access/incidents/photos/add?id=${id}`, headers: { 'access-token': token, 'content-type': contentType }, payload: data });
  const list = (token: string, id: number) => client(t.app, token).get(`/auth/access/incidents/photos?id=${id}`);
  const file = (token: string, photoId: string) => client(t.app, token).get(`/auth/access/incidents/photos/file?id=${photoId}`);
  const stored = async () => Number((await t.database.sql.query<{ n: string }>(`select count(*) as n from incident_photos`))[0]!.n);

  beforeAll(async () => {
    t = await startTestApp(kind);
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const admin = client(t.app, adminToken);
    await ensureDemoFleet(t.database.sql, 2);
    for (const l of body(await admin.get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
    const ops = body(await admin.post('/auth/access/system/orgs/create', { name: `Photo Ops ${kind}`, kind: 'operator' })).result;
    const other = body(await admin.post('/auth/access/system/orgs/create', { name: `Photo Elsewhere ${kind}`, kind: 'operator' })).result;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: ops.id, liftIds: [ids['DEMO-0001']] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: other.id, liftIds: [ids['DEMO-0002']] });
    tech = await userWithRole(t, adminToken, 'technician', `photo-tech-${kind}`, ops.id);
    viewer = await userWithRole(t, adminToken, 'viewer', `photo-viewer-${kind}`, ops.id);
    far = await userWithRole(t, adminToken, 'technician', `photo-far-${kind}`, other.id);
    // A role that sees lifts but not incidents.
    const role = body(await admin.post('/auth/access/system/roles/create', { name: `lifts-only-${kind}`, roleType: 'viewer', permissions: [{ permissionId: 'lift', actions: ['query', 'get'], scope: 'served' }] })).result;
    const password = 'Strong-Pass-photo1';
    await admin.post('/auth/access/system/users/create', { username: `photo-noinc-${kind}`, name: 'No incidents', password, roleId: role.id, orgId: ops.id });
    noIncident = await login(t.app, `photo-noinc-${kind}`, password);
    const created = await client(t.app, tech.token).post('/auth/access/incidents/create', { liftId: ids['DEMO-0001'], title: 'Door panel cracked' });
    expect(created.statusCode, created.body).toBe(200);
    incidentId = body(created).result.id;
  }, 60_000);
  afterAll(() => t.close());

  it('stores a PNG and a JPEG and serves them back byte for byte, with who and when', async () => {
    const a = png();
    const b = jpeg();
    // The PNG comes as the web client sends a file: application/octet-stream; the type is read from its bytes.
    const first = await upload(tech.token, incidentId, a, 'application/octet-stream');
    expect(first.statusCode, first.body).toBe(200);
    expect(body(first).result).toMatchObject({ incidentId, contentType: 'image/png', size: a.length, addedByName: tech.username, addedById: tech.id });
    const second = await upload(tech.token, incidentId, b, 'image/jpeg');
    expect(second.statusCode, second.body).toBe(200);
    expect(body(second).result.contentType).toBe('image/jpeg');

    const photos = body(await list(viewer.token, incidentId)).result.list;
    expect(photos.map((p: { contentType: string }) => p.contentType)).toEqual(['image/png', 'image/jpeg']);
    expect(Date.parse(photos[0].addedAt)).toBeGreaterThan(Date.now() - 60_000);

    const served = await file(viewer.token, photos[0].id);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(a)).toBe(true);
    const servedJpeg = await file(tech.token, photos[1].id);
    expect(servedJpeg.headers['content-type']).toBe('image/jpeg');
    expect(servedJpeg.rawPayload.equals(b)).toBe(true);

    // The lift's logbook keeps each photo's fingerprint; the audit log names it.
    const logbook = body(await client(t.app, adminToken).post('/auth/access/lift/logbook/page', { liftId: ids['DEMO-0001'], kinds: ['incident'] })).result.list;
    expect(logbook.filter((e: { data: { photo?: unknown } }) => e.data.photo).map((e: { data: { photo: { sha256: string } } }) => e.data.photo.sha256)).toEqual([photos[1].sha256, photos[0].sha256]);
    const [audit] = await t.database.sql.query<{ n: string }>(`select count(*) as n from audit_log where action = 'incident.photo'`);
    expect(Number(audit!.n)).toBe(2);
  });

  it('refuses a text file named .jpg, an empty body and a photo over the limit, storing nothing', async () => {
    const before = await stored();
    const text = await upload(tech.token, incidentId, Buffer.from('This is not a photo, just words in a file called photo.jpg\n'), 'image/jpeg');
    expect(text.statusCode).toBe(415);
    expect(body(text).code).toBe('incident.photoType');
    const gif = await upload(tech.token, incidentId, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif');
    expect(body(gif).code).toBe('incident.photoType');
    const empty = await upload(tech.token, incidentId, Buffer.alloc(0), 'image/png');
    expect(empty.statusCode).toBe(400);
    const big = Buffer.concat([jpeg(), Buffer.alloc(MAX_INCIDENT_PHOTO_BYTES)]);
    const tooBig = await upload(tech.token, incidentId, big, 'image/jpeg');
    expect(tooBig.statusCode).toBe(413);
    expect(body(tooBig)).toMatchObject({ code: 'incident.photoTooLarge', result: { maxBytes: MAX_INCIDENT_PHOTO_BYTES } });
    expect(await stored()).toBe(before);
  });

  it("hides another organization's incident and photos, and refuses users without the permission", async () => {
    const [photo] = body(await list(tech.token, incidentId)).result.list;
    // Another organization: the incident and its photo do not exist for them.
    expect([(await list(far.token, incidentId)).statusCode, body(await list(far.token, incidentId)).code]).toEqual([404, 'incident.notFound']);
    const farFile = await file(far.token, photo.id);
    expect([farFile.statusCode, body(farFile).code]).toEqual([404, 'incident.photoNotFound']);
    const farUpload = await upload(far.token, incidentId, png(), 'image/png');
    expect([farUpload.statusCode, body(farUpload).code]).toEqual([404, 'incident.notFound']);
    // A viewer sees photos but may not add them; a role without `incident` may do neither.
    const viewerUpload = await upload(viewer.token, incidentId, png(), 'image/png');
    expect([viewerUpload.statusCode, body(viewerUpload).code]).toEqual([403, 'forbidden']);
    expect((await list(noIncident, incidentId)).statusCode).toBe(403);
    const noFile = await file(noIncident, photo.id);
    expect([noFile.statusCode, body(noFile).code]).toEqual([403, 'forbidden']);
    // An unknown photo id is not found.
    expect((await file(tech.token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});
