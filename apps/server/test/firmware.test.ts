import { createHash, randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  FIRMWARE_TOKEN_TTL_MS,
  downloadResponse,
  formatRangeHeader,
  type FirmwarePackage,
} from '@liftlink/protocol';
import {
  firmwareTrustStore,
  generateFirmwareKeyPair,
  verifyEnvelope,
} from '@liftlink/protocol/firmware-signature';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { KEY_SECRET_FILE } from '../src/modules/firmware/keys.ts';
import {
  ADMIN_PASSWORD,
  DB_KINDS,
  body,
  client,
  login,
  startTestApp,
  userWithRole,
  type TestApp,
} from './helpers.ts';

const MAX_BYTES = 1_000_000;
const PACKAGES = '/auth/access/firmware/packages';
const KEY = '/manufacture/firmware/signing-key';
const imageUrl = (id: string) => `/api/iot/firmware/${id}/image`;
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe.each(DB_KINDS)('firmware packages on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let adminToken: string;
  let makerOrg: string;
  let otherMaker: string;
  /** Users with a firmware role in the seeded maker, another maker and an operator. */
  const tokens = { maker: '', other: '', operator: '' };
  const lifts = { one: '', two: '', otherKind: '', otherMakers: '' };
  let versionNo = 0;

  async function addLift(deviceNo: string, kindName: string, org: string): Promise<string> {
    const [row] = await t.database.sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, manufacturer_org_id) values ($1, $2, 2, $3) returning id`,
      [deviceNo, kindName, org],
    );
    return row!.id;
  }
  const userIn = async (role: string, orgId: string) =>
    (await userWithRole(t, adminToken, role, undefined, orgId)).token;
  const create = (token: string, extra: object = {}) =>
    client(t.app, token).post(`${PACKAGES}/create`, {
      kinds: ['inclinedStraightRack'],
      version: `FW-2.${++versionNo}.0`,
      minVersion: 'FW-1.0.0',
      releaseNotes: { 'en-US': 'Smoother start', 'zh-CN': '起步更平稳' },
      ...extra,
    });
  const upload = (token: string, id: string, data: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `${PACKAGES}/upload?id=${id}`,
      headers: { 'access-token': token, 'content-type': 'application/octet-stream' },
      payload: data,
    });
  const withdraw = (token: string, id: string) =>
    client(t.app, token).post(`${PACKAGES}/withdraw`, { id });
  const get = (token: string, id: string) => client(t.app, token).get(`${PACKAGES}/get?id=${id}`);
  const download = (id: string, token: string | null, deviceNo: string | null, range?: string) =>
    t.app.inject({
      method: 'GET',
      url: imageUrl(id),
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(deviceNo ? { 'x-device-no': deviceNo } : {}),
        ...(range ? { range } : {}),
      },
    });
  /** A package of the maker with its image uploaded. */
  async function readyPackage(data: Buffer, extra: object = {}): Promise<FirmwarePackage> {
    const created = await create(tokens.maker, extra);
    expect(created.statusCode, created.body).toBe(200);
    const res = await upload(tokens.maker, body<FirmwarePackage>(created).result.id, data);
    expect(res.statusCode, res.body).toBe(200);
    return body<FirmwarePackage>(res).result;
  }
  const chunkCount = async (id: string) =>
    Number(
      (
        await t.database.sql.query<{ n: string }>(
          `select count(*) as n from firmware_chunks where package_id = $1`,
          [id],
        )
      )[0]!.n,
    );

  beforeAll(async () => {
    t = await startTestApp(kind, {
      FIRMWARE_MAX_BYTES: String(MAX_BYTES),
      RATE_LIMIT_MAX: '100000',
      PUBLIC_URL: 'https://cloud.example.com',
    });
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    const sql = t.database.sql;
    makerOrg = (
      await sql.query<{ id: string }>(
        `select id from organizations where kind = 'manufacturer' order by created_at limit 1`,
      )
    )[0]!.id;
    otherMaker = (
      await sql.query<{ id: string }>(
        `insert into organizations (name, kind) values ('Firmware Other Maker', 'manufacturer') returning id`,
      )
    )[0]!.id;
    const operatorOrg = (
      await sql.query<{ id: string }>(
        `insert into organizations (name, kind) values ('Firmware Operator', 'operator') returning id`,
      )
    )[0]!.id;
    const role = await admin.post('/auth/access/system/roles/create', {
      name: 'firmware-engineer',
      permissions: [
        { permissionId: 'firmware', actions: ['query', 'add', 'delete'] },
        { permissionId: 'manufacture', actions: ['query', 'add'], scope: 'served' },
      ],
    });
    expect(role.statusCode, role.body).toBe(200);
    tokens.maker = await userIn('firmware-engineer', makerOrg);
    tokens.other = await userIn('firmware-engineer', otherMaker);
    tokens.operator = await userIn('firmware-engineer', operatorOrg);
    lifts.one = await addLift('FW-LIFT-0001', 'inclinedStraightRack', makerOrg);
    lifts.two = await addLift('FW-LIFT-0002', 'inclinedStraightRack', makerOrg);
    lifts.otherKind = await addLift('FW-LIFT-0003', 'verticalPlatform', makerOrg);
    lifts.otherMakers = await addLift('FW-LIFT-0004', 'inclinedStraightRack', otherMaker);
  }, 120_000);
  afterAll(() => t?.close());

  it('stores an uploaded image in chunks and answers its size and SHA-256; a second upload is refused and changes nothing', async () => {
    const created = await create(tokens.maker);
    expect(created.statusCode, created.body).toBe(200);
    const pkg = body<FirmwarePackage>(created).result;
    expect(pkg).toMatchObject({
      state: 'uploading',
      size: null,
      sha256: null,
      orgId: makerOrg,
      kinds: ['inclinedStraightRack'],
      releaseNotes: { 'en-US': 'Smoother start', 'zh-CN': '起步更平稳', 'ru-RU': '' },
    });

    const image = randomBytes(600_000); // three chunks of 256 KiB, the last one shorter
    const res = await upload(tokens.maker, pkg.id, image);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<FirmwarePackage>(res).result).toMatchObject({
      id: pkg.id,
      state: 'ready',
      size: image.length,
      sha256: sha(image),
    });
    expect(await chunkCount(pkg.id)).toBe(3);

    const again = await upload(tokens.maker, pkg.id, randomBytes(1000));
    expect([again.statusCode, body(again).code]).toEqual([409, 'firmware.uploaded']);
    const read = body<FirmwarePackage>(await get(tokens.maker, pkg.id)).result;
    expect([read.state, read.size, read.sha256]).toEqual(['ready', image.length, sha(image)]);
    const listed = body<{ list: FirmwarePackage[] }>(
      await client(t.app, tokens.maker).get(`${PACKAGES}?state=ready`),
    ).result.list;
    expect(listed.map((p) => p.id)).toContain(pkg.id);

    const audited = await t.database.sql.query<{ action: string; detail: { sha256?: string } }>(
      `select action, detail from audit_log where target_id = $1 order by id`,
      [pkg.id],
    );
    expect(audited.map((a) => a.action)).toEqual(['firmware.create', 'firmware.upload']);
    expect(audited[1]!.detail.sha256).toBe(sha(image));
  });

  it('refuses an empty image and one over FIRMWARE_MAX_BYTES, keeping the package ready for a good upload', async () => {
    const pkg = body<FirmwarePackage>(await create(tokens.maker)).result;
    const empty = await upload(tokens.maker, pkg.id, Buffer.alloc(0));
    expect([empty.statusCode, body(empty).code]).toEqual([400, 'validation.failed']);
    const large = await upload(tokens.maker, pkg.id, randomBytes(MAX_BYTES + 1));
    expect([large.statusCode, body(large).code, body(large).result]).toEqual([
      413,
      'firmware.tooLarge',
      { maxBytes: MAX_BYTES },
    ]);
    // Without a Content-Length the limit is found while reading: the chunks written so far go.
    const streamed = await t.app.inject({
      method: 'POST',
      url: `${PACKAGES}/upload?id=${pkg.id}`,
      headers: { 'access-token': tokens.maker, 'content-type': 'application/octet-stream' },
      payload: Readable.from(
        (function* () {
          for (let i = 0; i < 8; i += 1) yield randomBytes(MAX_BYTES / 8 + 1);
        })(),
      ),
    });
    expect([streamed.statusCode, body(streamed).code]).toEqual([413, 'firmware.tooLarge']);
    expect(body<FirmwarePackage>(await get(tokens.maker, pkg.id)).result).toMatchObject({
      state: 'uploading',
      size: null,
      sha256: null,
    });
    expect(await chunkCount(pkg.id)).toBe(0);

    const exact = randomBytes(MAX_BYTES);
    const res = await upload(tokens.maker, pkg.id, exact);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<FirmwarePackage>(res).result).toMatchObject({
      size: MAX_BYTES,
      sha256: sha(exact),
    });
  });

  it('refuses a package for an unknown lift kind, without kinds, with a minimum above its version, or a version twice', async () => {
    const before = body<{ list: FirmwarePackage[] }>(await admin.get(PACKAGES)).result.list.length;
    for (const bad of [
      { kinds: ['escalator'] },
      { kinds: [] },
      { version: 'FW-1.0.0', minVersion: 'FW-1.2.0' },
      { version: '1.2' },
    ]) {
      const res = await create(tokens.maker, bad);
      expect([res.statusCode, body(res).code], JSON.stringify(bad)).toEqual([
        400,
        'validation.failed',
      ]);
    }
    const first = await create(tokens.maker, { version: 'FW-9.9.9' });
    expect(first.statusCode).toBe(200);
    const twice = await create(tokens.maker, { version: 'FW-9.9.9' });
    expect([twice.statusCode, body(twice).code]).toEqual([409, 'firmware.exists']);
    // An operator organization makes no firmware.
    const operator = await create(tokens.operator);
    expect([operator.statusCode, body(operator).code]).toEqual([409, 'firmware.notManufacturer']);
    expect(body<{ list: FirmwarePackage[] }>(await admin.get(PACKAGES)).result.list.length).toBe(
      before + 1,
    );
  });

  it("another organization's user neither sees, uploads to nor withdraws a package; the administrator sees every organization's", async () => {
    const pkg = body<FirmwarePackage>(await create(tokens.maker)).result;
    const other = client(t.app, tokens.other);
    expect(
      body<{ list: FirmwarePackage[] }>(await other.get(PACKAGES)).result.list.map((p) => p.id),
    ).not.toContain(pkg.id);
    for (const res of [
      await get(tokens.other, pkg.id),
      await upload(tokens.other, pkg.id, randomBytes(100)),
      await withdraw(tokens.other, pkg.id),
    ]) {
      expect([res.statusCode, body(res).code]).toEqual([404, 'firmware.notFound']);
    }
    expect(body<FirmwarePackage>(await get(tokens.maker, pkg.id)).result).toMatchObject({
      state: 'uploading',
      size: null,
    });
    expect(await chunkCount(pkg.id)).toBe(0);
    // Their own package is theirs alone.
    const theirs = body<FirmwarePackage>(await create(tokens.other)).result;
    expect(theirs.orgId).toBe(otherMaker);
    expect(
      body<{ list: FirmwarePackage[] }>(
        await client(t.app, tokens.maker).get(PACKAGES),
      ).result.list.map((p) => p.id),
    ).not.toContain(theirs.id);
    const all = body<{ list: FirmwarePackage[] }>(await admin.get(PACKAGES)).result.list.map(
      (p) => p.id,
    );
    expect(all).toEqual(expect.arrayContaining([pkg.id, theirs.id]));
  });

  it('sends the whole image, resumes from the middle, serves a range across chunks, and answers 416 past the end', async () => {
    const image = randomBytes(600_000);
    const pkg = await readyPackage(image);
    const { token } = await t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });

    const whole = await download(pkg.id, token, 'FW-LIFT-0001');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(image.length));
    expect(sha(whole.rawPayload)).toBe(sha(image));

    const from = 300_000;
    const rest = await download(pkg.id, token, 'FW-LIFT-0001', formatRangeHeader(from));
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes ${from}-${image.length - 1}/${image.length}`);
    expect(
      downloadResponse(
        rest.statusCode,
        rest.headers['content-range'] as string,
        from,
        image.length,
      ),
    ).toEqual({ action: 'append' });
    expect(rest.rawPayload.equals(image.subarray(from))).toBe(true);

    const across = await download(pkg.id, token, 'FW-LIFT-0001', 'bytes=262000-262300');
    expect([across.statusCode, across.headers['content-range']]).toEqual([
      206,
      `bytes 262000-262300/${image.length}`,
    ]);
    expect(across.rawPayload.equals(image.subarray(262_000, 262_301))).toBe(true);

    const past = await download(pkg.id, token, 'FW-LIFT-0001', `bytes=${image.length}-`);
    expect([past.statusCode, past.headers['content-range'], body(past).code]).toEqual([
      416,
      `bytes */${image.length}`,
      'firmware.range',
    ]);
  });

  it('refuses a token of another lift, of another package, an expired or unknown one, or none', async () => {
    const pkg = await readyPackage(randomBytes(5000));
    const second = await readyPackage(randomBytes(5000));
    const { token } = await t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });
    const refused = async (res: Awaited<ReturnType<typeof download>>) => {
      expect([res.statusCode, body(res).code]).toEqual([401, 'firmware.tokenRefused']);
      expect(downloadResponse(res.statusCode, null, 0, 5000)).toEqual({
        action: 'fail',
        reason: 'tokenRefused',
      });
    };
    await refused(await download(pkg.id, token, 'FW-LIFT-0002'));
    await refused(await download(pkg.id, token, null));
    await refused(await download(second.id, token, 'FW-LIFT-0001'));
    await refused(await download(pkg.id, 'A'.repeat(43), 'FW-LIFT-0001'));
    await refused(await download(pkg.id, null, 'FW-LIFT-0001'));
    const old = await t.app.firmware.offer({
      packageId: pkg.id,
      liftId: lifts.one,
      now: new Date(Date.now() - FIRMWARE_TOKEN_TTL_MS - 60_000),
    });
    await refused(await download(pkg.id, old.token, 'FW-LIFT-0001'));
    // The right lift with its token still gets the image.
    expect((await download(pkg.id, token, 'FW-LIFT-0001')).statusCode).toBe(200);
  });

  it('never offers or serves a withdrawn package again', async () => {
    const pkg = await readyPackage(randomBytes(5000));
    const { token } = await t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });
    const res = await withdraw(tokens.maker, pkg.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<FirmwarePackage>(res).result).toMatchObject({
      state: 'withdrawn',
      withdrawnAt: expect.any(String),
    });

    // The lift that was offered it hears that it was withdrawn (and reports `withdrawn`).
    const refused = await download(pkg.id, token, 'FW-LIFT-0001');
    expect([refused.statusCode, body(refused).code]).toEqual([410, 'firmware.withdrawn']);
    expect(downloadResponse(refused.statusCode, null, 0, 5000)).toEqual({
      action: 'fail',
      reason: 'withdrawn',
    });
    // Its token serves no other lift meanwhile.
    expect((await download(pkg.id, token, 'FW-LIFT-0002')).statusCode).toBe(401);
    await expect(
      t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.one }),
    ).rejects.toMatchObject({ code: 'firmware.withdrawn' });
    const again = await withdraw(tokens.maker, pkg.id);
    expect([again.statusCode, body(again).code]).toEqual([410, 'firmware.withdrawn']);
    const late = await upload(tokens.maker, pkg.id, randomBytes(10));
    expect([late.statusCode, body(late).code]).toEqual([410, 'firmware.withdrawn']);
    const [audit] = await t.database.sql.query<{ action: string }>(
      `select action from audit_log where target_id = $1 and action = 'firmware.withdraw'`,
      [pkg.id],
    );
    expect(audit).toBeDefined();
  });

  it("signs each offer with the organization's key: it verifies with the public key, and each offer has a higher seq", async () => {
    const image = randomBytes(7000);
    const pkg = await readyPackage(image);
    const keyRes = await client(t.app, tokens.maker).get(KEY);
    expect(keyRes.statusCode, keyRes.body).toBe(200);
    const key = body<{ keyId: string; publicKey: string; orgId: string; source: string }>(
      keyRes,
    ).result;
    expect([key.orgId, key.source]).toEqual([makerOrg, 'generated']);
    // The administrator's bench writes the key of the maker it registers lifts for (the first).
    expect(body<{ keyId: string }>(await admin.get(KEY)).result.keyId).toBe(key.keyId);

    const first = await t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });
    const verified = verifyEnvelope(
      JSON.stringify(first.envelope),
      firmwareTrustStore([key.publicKey]),
    );
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.keyId).toBe(key.keyId);
    expect(verified.manifest).toMatchObject({
      packageId: pkg.id,
      deviceNo: 'FW-LIFT-0001',
      version: pkg.version,
      size: image.length,
      sha256: sha(image),
      url: `https://cloud.example.com${imageUrl(pkg.id)}`,
    });
    const second = await t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });
    expect(second.manifest.seq).toBeGreaterThan(first.manifest.seq);

    // Another maker's key is not the one that signed (its lifts would say unknownKey).
    const otherKey = body<{ publicKey: string }>(await client(t.app, tokens.other).get(KEY)).result
      .publicKey;
    expect(otherKey).not.toBe(key.publicKey);
    expect(verifyEnvelope(first.envelope, firmwareTrustStore([otherKey]))).toEqual({
      ok: false,
      reason: 'unknownKey',
    });
    // Nobody offers a package to a lift it is not made for.
    await expect(
      t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.otherKind }),
    ).rejects.toMatchObject({ code: 'firmware.notForLift' });
    await expect(
      t.app.firmware.offer({ packageId: pkg.id, liftId: lifts.otherMakers }),
    ).rejects.toMatchObject({ code: 'firmware.notForLift' });
    const uploading = body<FirmwarePackage>(await create(tokens.maker)).result;
    await expect(
      t.app.firmware.offer({ packageId: uploading.id, liftId: lifts.one }),
    ).rejects.toMatchObject({ code: 'firmware.notReady' });
  });

  it('keeps the key across a restart with the same secret; another secret, or none with DATABASE_URL, is a clear error', async () => {
    const key = body<{ keyId: string; publicKey: string }>(
      await client(t.app, tokens.maker).get(KEY),
    ).result;
    // The embedded mode made its secret file, readable by the server's user only.
    expect(statSync(path.join(t.dataDir, KEY_SECRET_FILE)).mode & 0o777).toBe(0o600);
    const pkg = await readyPackage(randomBytes(3000));

    const restarted = async (config: Config, run: (app: FastifyInstance) => Promise<void>) => {
      const app = await buildApp({ config, database: t.database, logger: false });
      await app.ready();
      try {
        await run(app);
      } finally {
        await app.close();
      }
    };
    const keyOf = async (app: FastifyInstance) => {
      const token = await login(app, 'admin', ADMIN_PASSWORD);
      return client(app, token).get(`${KEY}?orgId=${makerOrg}`);
    };
    await restarted(t.config, async (app) => {
      expect(body(await keyOf(app)).result).toMatchObject({
        keyId: key.keyId,
        publicKey: key.publicKey,
      });
      const offer = await app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });
      expect(verifyEnvelope(offer.envelope, firmwareTrustStore([key.publicKey])).ok).toBe(true);
    });
    await restarted(
      {
        ...t.config,
        firmware: { ...t.config.firmware, keySecret: 'another-secret-of-at-least-32-characters' },
      },
      async (app) => {
        const res = await keyOf(app);
        expect([res.statusCode, body(res).code]).toEqual([503, 'firmware.keySecretWrong']);
        await expect(
          app.firmware.offer({ packageId: pkg.id, liftId: lifts.one }),
        ).rejects.toMatchObject({ code: 'firmware.keySecretWrong' });
      },
    );
    await restarted(
      { ...t.config, databaseUrl: 'postgres://liftlink@127.0.0.1:1/unused' },
      async (app) => {
        const res = await keyOf(app);
        expect([res.statusCode, body(res).code]).toEqual([503, 'firmware.keySecretMissing']);
      },
    );
    // An operator's own key file signs for every organization instead.
    const pair = generateFirmwareKeyPair();
    const file = path.join(t.dataDir, 'signing-key.pem');
    writeFileSync(file, pair.privateKey, { mode: 0o600 });
    await restarted(
      { ...t.config, firmware: { ...t.config.firmware, signingKeyFile: file } },
      async (app) => {
        expect(body(await keyOf(app)).result).toMatchObject({
          keyId: pair.keyId,
          publicKey: pair.publicKey,
          source: 'file',
        });
        const offer = await app.firmware.offer({ packageId: pkg.id, liftId: lifts.one });
        expect(verifyEnvelope(offer.envelope, firmwareTrustStore([pair.publicKey])).ok).toBe(true);
      },
    );
  }, 120_000);
});
