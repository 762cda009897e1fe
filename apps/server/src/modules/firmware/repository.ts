import type { DeviceKind, FirmwarePackage, FirmwarePackageState } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** The image is stored in rows of this many bytes (the last one shorter), numbered from 0. */
export const CHUNK_BYTES = 256 * 1024;

interface PackageRow {
  id: string;
  org_id: string;
  org_name: string;
  kinds: DeviceKind[];
  version: string;
  min_version: string;
  notes_zh: string;
  notes_en: string;
  notes_ru: string;
  size: string | number | null;
  sha256: string | null;
  state: FirmwarePackageState;
  created_by_name: string;
  created_at: Date;
  withdrawn_by_name: string | null;
  withdrawn_at: Date | null;
}

const COLUMNS = `p.id, p.org_id, o.name as org_name, p.kinds, p.version, p.min_version, p.notes_zh, p.notes_en, p.notes_ru, p.size, p.sha256, p.state,
  p.created_by_name, p.created_at, p.withdrawn_by_name, p.withdrawn_at`;
const FROM = 'firmware_packages p join organizations o on o.id = p.org_id';

const toPackage = (r: PackageRow): FirmwarePackage => ({
  id: r.id,
  orgId: r.org_id,
  orgName: r.org_name,
  kinds: r.kinds,
  version: r.version,
  minVersion: r.min_version,
  releaseNotes: { 'zh-CN': r.notes_zh, 'en-US': r.notes_en, 'ru-RU': r.notes_ru },
  size: r.size === null ? null : Number(r.size),
  sha256: r.sha256,
  state: r.state,
  createdByName: r.created_by_name,
  createdAt: new Date(r.created_at).toISOString(),
  withdrawnByName: r.withdrawn_by_name,
  withdrawnAt: r.withdrawn_at ? new Date(r.withdrawn_at).toISOString() : null,
});

/** Packages, newest first: of one organization, or (orgId null) of all. */
export async function listPackages(
  sql: SqlExecutor,
  orgId: string | null,
  state: FirmwarePackageState | undefined,
): Promise<FirmwarePackage[]> {
  const rows = await sql.query<PackageRow>(
    `select ${COLUMNS} from ${FROM} where ($1::uuid is null or p.org_id = $1) and ($2::text is null or p.state = $2) order by p.created_at desc, p.id`,
    [orgId, state ?? null],
  );
  return rows.map(toPackage);
}

export async function findPackage(sql: SqlExecutor, id: string): Promise<FirmwarePackage | null> {
  const [row] = await sql.query<PackageRow>(`select ${COLUMNS} from ${FROM} where p.id = $1`, [id]);
  return row ? toPackage(row) : null;
}

export async function organizationKind(
  sql: SqlExecutor,
  orgId: string,
): Promise<'manufacturer' | 'operator' | null> {
  const [row] = await sql.query<{ kind: 'manufacturer' | 'operator' }>(
    `select kind from organizations where id = $1`,
    [orgId],
  );
  return row?.kind ?? null;
}

/** A new package in `uploading`, or null when the organization has that version already. */
export async function insertPackage(
  sql: SqlExecutor,
  p: {
    orgId: string;
    kinds: DeviceKind[];
    version: string;
    minVersion: string;
    notes: { zh: string; en: string; ru: string };
    userId: string;
    username: string;
  },
): Promise<FirmwarePackage | null> {
  const [row] = await sql.query<{ id: string }>(
    `insert into firmware_packages (org_id, kinds, version, min_version, notes_zh, notes_en, notes_ru, created_by, created_by_name)
     values ($1, $2::text[], $3, $4, $5, $6, $7, $8, $9) on conflict (org_id, version) do nothing returning id`,
    [
      p.orgId,
      p.kinds,
      p.version,
      p.minVersion,
      p.notes.zh,
      p.notes.en,
      p.notes.ru,
      p.userId,
      p.username,
    ],
  );
  return row ? findPackage(sql, row.id) : null;
}

/**
 * Claims the package for one upload: only while it is `uploading` and no other upload holds
 * it (a claim older than an hour is from an upload that died with its instance). Drops
 * what such an upload left. False when the package was uploaded, withdrawn or is busy.
 */
export async function claimUpload(sql: SqlExecutor, id: string, claim: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `update firmware_packages set upload_claim = $2, upload_claimed_at = now()
        where id = $1 and state = 'uploading' and (upload_claim is null or upload_claimed_at < now() - interval '1 hour') returning id`,
      [id, claim],
    );
    if (!row) return false;
    await tx.query(`delete from firmware_chunks where package_id = $1`, [id]);
    return true;
  });
}

export async function insertChunk(
  sql: SqlExecutor,
  id: string,
  chunkNo: number,
  data: Buffer,
): Promise<void> {
  await sql.query(`insert into firmware_chunks (package_id, chunk_no, data) values ($1, $2, $3)`, [
    id,
    chunkNo,
    data,
  ]);
}

/** An upload that failed: its chunks go, the package stays `uploading` and free for the next try. */
export async function abandonUpload(sql: SqlExecutor, id: string, claim: string): Promise<void> {
  await sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `update firmware_packages set upload_claim = null, upload_claimed_at = null where id = $1 and upload_claim = $2 and state = 'uploading' returning id`,
      [id, claim],
    );
    if (row) await tx.query(`delete from firmware_chunks where package_id = $1`, [id]);
  });
}

/** The upload is complete: size and SHA-256, state `ready`. False when the claim was lost meanwhile. */
export async function completeUpload(
  sql: SqlExecutor,
  id: string,
  claim: string,
  size: number,
  sha256: string,
): Promise<boolean> {
  const [row] = await sql.query<{ id: string }>(
    `update firmware_packages set state = 'ready', size = $3, sha256 = $4, upload_claim = null, upload_claimed_at = null
      where id = $1 and upload_claim = $2 and state = 'uploading' returning id`,
    [id, claim, size, sha256],
  );
  return !!row;
}

/**
 * Withdraws a package for good. False when it was withdrawn already. Its download tokens
 * stay until they expire, so that a lift holding one hears 410 (`withdrawn`), not 401.
 */
export async function withdrawPackage(
  sql: SqlExecutor,
  id: string,
  userId: string,
  username: string,
): Promise<boolean> {
  const [row] = await sql.query<{ id: string }>(
    `update firmware_packages set state = 'withdrawn', withdrawn_by = $2, withdrawn_by_name = $3, withdrawn_at = now(), upload_claim = null, upload_claimed_at = null
      where id = $1 and state <> 'withdrawn' returning id`,
    [id, userId, username],
  );
  return !!row;
}

/** One chunk's bytes while the package is `ready` (a withdrawal stops a download under way). */
export async function readChunk(
  sql: SqlExecutor,
  id: string,
  chunkNo: number,
): Promise<Buffer | null> {
  const [row] = await sql.query<{ data: Uint8Array }>(
    `select c.data from firmware_chunks c join firmware_packages p on p.id = c.package_id where c.package_id = $1 and c.chunk_no = $2 and p.state = 'ready'`,
    [id, chunkNo],
  );
  return row ? Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) : null;
}

// ---------------------------------------------------------------------------------------
// Signing keys

export async function signingKeyRow(
  sql: SqlExecutor,
  orgId: string,
): Promise<{ key_id: string; public_key: string; private_key_enc: Uint8Array } | null> {
  const [row] = await sql.query<{
    key_id: string;
    public_key: string;
    private_key_enc: Uint8Array;
  }>(`select key_id, public_key, private_key_enc from firmware_signing_keys where org_id = $1`, [
    orgId,
  ]);
  return row ?? null;
}

/** Stores a new key unless the organization has one (another instance was first). */
export async function insertSigningKey(
  sql: SqlExecutor,
  k: { orgId: string; keyId: string; publicKey: string; privateKeyEnc: Buffer },
): Promise<void> {
  await sql.query(
    `insert into firmware_signing_keys (key_id, org_id, public_key, private_key_enc) values ($1, $2, $3, $4) on conflict do nothing`,
    [k.keyId, k.orgId, k.publicKey, k.privateKeyEnc],
  );
}

// ---------------------------------------------------------------------------------------
// Offers and download tokens

export interface OfferLift {
  id: string;
  deviceNo: string | null;
  kind: DeviceKind;
  manufacturerOrgId: string;
}

export async function offerLift(sql: SqlExecutor, liftId: string): Promise<OfferLift | null> {
  const [row] = await sql.query<{
    id: string;
    device_no: string | null;
    kind: DeviceKind;
    manufacturer_org_id: string;
  }>(`select id, device_no, kind, manufacturer_org_id from lifts where id = $1`, [liftId]);
  return row
    ? {
        id: row.id,
        deviceNo: row.device_no,
        kind: row.kind,
        manufacturerOrgId: row.manufacturer_org_id,
      }
    : null;
}

/**
 * The lift's next offer number and its new download token, in one transaction: the number
 * grows with every offer, whichever instance issues it. Expired tokens of the lift go.
 */
export async function issueOffer(
  sql: SqlExecutor,
  o: {
    liftId: string;
    packageId: string;
    version: string;
    campaignId: string | null;
    tokenHash: string;
    expiresAt: Date;
  },
): Promise<number> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ seq: number }>(
      `insert into firmware_offer_seqs (lift_id, seq) values ($1, 1) on conflict (lift_id) do update set seq = firmware_offer_seqs.seq + 1 returning seq`,
      [o.liftId],
    );
    await tx.query(
      `delete from firmware_download_tokens where lift_id = $1 and expires_at <= now()`,
      [o.liftId],
    );
    await tx.query(
      `insert into firmware_download_tokens (token_hash, lift_id, package_id, expires_at) values ($1, $2, $3, $4)`,
      [o.tokenHash, o.liftId, o.packageId, o.expiresAt],
    );
    // The update as the cloud knows it until the lift reports (lift_firmware_updates).
    await tx.query(
      `insert into lift_firmware_updates (lift_id, offer_seq, package_id, campaign_id, version, state, offered_at)
       values ($1, $2, $3, $4, $5, 'offered', now())`,
      [o.liftId, row!.seq, o.packageId, o.campaignId, o.version],
    );
    return Number(row!.seq);
  });
}

export interface TokenGrant {
  deviceNo: string | null;
  packageId: string;
  expiresAt: Date;
  state: FirmwarePackageState;
  size: number | null;
  sha256: string | null;
}

/** What a download token grants, by its hash: the lift's number, the package and its state. */
export async function tokenGrant(sql: SqlExecutor, tokenHash: string): Promise<TokenGrant | null> {
  const [row] = await sql.query<{
    device_no: string | null;
    package_id: string;
    expires_at: Date;
    state: FirmwarePackageState;
    size: string | number | null;
    sha256: string | null;
  }>(
    `select l.device_no, t.package_id, t.expires_at, p.state, p.size, p.sha256
       from firmware_download_tokens t join lifts l on l.id = t.lift_id join firmware_packages p on p.id = t.package_id
      where t.token_hash = $1`,
    [tokenHash],
  );
  return row
    ? {
        deviceNo: row.device_no,
        packageId: row.package_id,
        expiresAt: new Date(row.expires_at),
        state: row.state,
        size: row.size === null ? null : Number(row.size),
        sha256: row.sha256,
      }
    : null;
}
