import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KINDS, documentDownloadPath } from '@liftlink/protocol';
import { seedDocuments, storeSeedDocuments } from '../src/modules/documents/seed-documents.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/** The file names inside a ustar archive. */
function tarNames(tgz: Buffer): string[] {
  const tar = gunzipSync(tgz);
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, len: number) => header.subarray(from, from + len).toString('utf8').replace(/\0.*$/s, '');
    const prefix = text(345, 155);
    names.push(prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    const size = parseInt(text(124, 12), 8);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe.each(DB_KINDS)('documents on %s', (kind) => {
  let t: TestApp;
  const tokens = { admin: '', viewer: '' };
  let viewer: ReturnType<typeof client>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    tokens.admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    tokens.viewer = (await userWithRole(t, tokens.admin, 'viewer')).token;
    viewer = client(t.app, tokens.viewer);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Uploads as the raw file, the way the web page sends it. */
  const upload = (as: 'admin' | 'viewer', name: string, data: Buffer, type = 'application/octet-stream') =>
    t.app.inject({
      method: 'POST',
      url: `/api/document/upload?name=${encodeURIComponent(name)}&kind=manual&deviceKind=verticalHydraulic`,
      headers: { 'access-token': tokens[as], 'content-type': type },
      payload: data,
    });

  it('lists a manual per device kind and the bridge package, seeded at start', async () => {
    const list = body(await viewer.get('/api/document/list')).result.list;
    // Seeded ones are built in; another test may have uploaded a manual of its own.
    const manuals = list.filter((d: any) => d.kind === 'manual' && d.builtIn);
    expect(manuals.map((d: any) => d.deviceKind).sort()).toEqual([...DEVICE_KINDS].sort());
    const bridge = list.find((d: any) => d.kind === 'bridge');
    expect(bridge).toMatchObject({ name: 'liftlink-serial-bridge.tgz', contentType: 'application/gzip' });
  });

  it('serves the bridge package as an archive of its source, README and the vendored protocol, without tests', async () => {
    const bridge = body(await viewer.get('/api/document/list?kind=bridge')).result.list[0];
    const res = await viewer.get(documentDownloadPath(bridge.id, bridge.name));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="liftlink-serial-bridge.tgz"; filename*=UTF-8''liftlink-serial-bridge.tgz`);
    const names = tarNames(res.rawPayload);
    expect(names).toEqual(expect.arrayContaining(['liftlink-serial-bridge/package.json', 'liftlink-serial-bridge/README.md', 'liftlink-serial-bridge/src/main.ts', 'liftlink-serial-bridge/vendor/protocol/package.json', 'liftlink-serial-bridge/vendor/protocol/src/index.ts']));
    expect(names.filter((n) => n.includes('.test.') || n.includes('node_modules'))).toEqual([]);
  });

  it("uploads with document.import; downloads under the spec's name rules", async () => {
    const pdf = Buffer.from('%PDF-1.4 fake manual');
    expect((await upload('viewer', 'x.pdf', pdf)).statusCode).toBe(403);
    const res = await upload('admin', 'hydraulic/2024#2 说明书.pdf', pdf);
    expect(res.statusCode).toBe(200);
    const doc = body(res).result;
    expect(doc).toMatchObject({ name: 'hydraulic/2024#2 说明书.pdf', contentType: 'application/pdf', size: pdf.length, builtIn: false, deviceKind: 'verticalHydraulic' });

    const url = documentDownloadPath(doc.id, doc.name);
    expect(url).toBe(`/api/document/download/${doc.id}/${encodeURIComponent('hydraulic_2024＃2 说明书.pdf')}`);
    const got = await viewer.get(url);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="hydraulic_2024_2 ___.pdf"; filename*=UTF-8''${encodeURIComponent('hydraulic_2024＃2 说明书.pdf')}`);
    expect(got.rawPayload.equals(pdf)).toBe(true);

    // an HTML upload is never served as a page of this origin
    const html = body(await upload('admin', 'evil.html', Buffer.from('<script>alert(1)</script>'), 'text/html')).result;
    expect((await viewer.get(documentDownloadPath(html.id, html.name))).headers['content-type']).toBe('application/octet-stream');
  });

  it('deletes with document.delete; a deleted seeded document does not come back at the next start', async () => {
    // A server of its own: the seeded manual it deletes stays gone, which no other test may see.
    const own = await startTestApp(kind);
    try {
      const ownAdminToken = await login(own.app, 'admin', ADMIN_PASSWORD);
      const ownAdmin = client(own.app, ownAdminToken);
      const ownViewer = client(own.app, (await userWithRole(own, ownAdminToken, 'viewer')).token);
      const manual = body(await ownAdmin.get('/api/document/list?kind=manual')).result.list.find((d: any) => d.deviceKind === 'inclined3dSprocket');
      expect((await ownViewer.post('/api/document/delete', { id: manual.id })).statusCode).toBe(403);
      expect((await ownAdmin.post('/api/document/delete', { id: manual.id })).statusCode).toBe(200);
      expect(body(await ownViewer.get(documentDownloadPath(manual.id, manual.name))).code).toBe('document.notFound');
      await storeSeedDocuments(own.database.sql, await seedDocuments());
      const after = body(await ownAdmin.get('/api/document/list?kind=manual')).result.list;
      expect(after.map((d: any) => d.deviceKind)).not.toContain('inclined3dSprocket');
      expect(body(await ownAdmin.post('/api/document/delete', { id: manual.id })).code).toBe('document.notFound');
    } finally {
      await own.close();
    }
  }, 60_000);
});
