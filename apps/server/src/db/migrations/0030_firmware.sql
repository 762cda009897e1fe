-- Firmware packages (docs/firmware.md, docs/protocol.md section 11).
--
-- Each manufacturer organization signs its lifts' offers with one Ed25519 key, generated on
-- first use. The private key (PKCS#8 DER) is kept encrypted with AES-256-GCM under a key
-- derived from FIRMWARE_KEY_SECRET: 12 bytes of IV, 16 bytes of tag, then the ciphertext,
-- with the organization and key id as associated data (a row copied to another
-- organization does not decrypt). The raw 32-byte public key (base64) is what the factory
-- bench writes into the lifts; the key id is the first 16 hex digits of its SHA-256.
create table firmware_signing_keys (
  key_id text primary key,
  org_id uuid not null unique references organizations(id) on delete cascade,
  public_key text not null,
  private_key_enc bytea not null,
  created_at timestamptz not null default now()
);

-- A package: the organization that made it, the lift kinds it is built for, its version and
-- the lowest version it installs over, release notes in three languages. Its image arrives
-- later (`uploading` until then, then `ready` with its size and SHA-256); `withdrawn` is
-- final: never offered or downloaded again. upload_claim marks an upload in progress, so
-- two uploads of one package cannot interleave their chunks.
create table firmware_packages (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references organizations(id),
  kinds text[] not null check (cardinality(kinds) >= 1),
  version text not null,
  min_version text not null,
  notes_zh text not null default '',
  notes_en text not null default '',
  notes_ru text not null default '',
  size bigint check (size is null or size > 0),
  sha256 text check (sha256 is null or sha256 ~ '^[0-9a-f]{64}$'),
  state text not null default 'uploading' check (state in ('uploading', 'ready', 'withdrawn')),
  upload_claim uuid,
  upload_claimed_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_by_name text not null,
  created_at timestamptz not null default now(),
  withdrawn_by uuid references users(id) on delete set null,
  withdrawn_by_name text,
  withdrawn_at timestamptz,
  unique (org_id, version),
  check (state = 'uploading' or (size is not null and sha256 is not null))
);
create index firmware_packages_org_idx on firmware_packages (org_id, created_at desc);

-- The image in chunks of 256 KiB (the last one shorter), numbered from 0: any instance
-- streams any byte range from the rows it needs without holding the image in memory.
create table firmware_chunks (
  package_id uuid not null references firmware_packages(id) on delete cascade,
  chunk_no integer not null check (chunk_no >= 0),
  data bytea not null,
  primary key (package_id, chunk_no)
);

-- A download token, issued with one offer to one lift for one package; only its SHA-256 is
-- kept. It is checked against the lift's device number, the package and its expiry.
create table firmware_download_tokens (
  token_hash text primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  package_id uuid not null references firmware_packages(id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index firmware_download_tokens_lift_idx on firmware_download_tokens (lift_id, expires_at);

-- The last offer number (`seq`) issued to each lift: every offer takes the next one, so a
-- lift refuses an offer it has seen (or an older one) as replayed.
create table firmware_offer_seqs (
  lift_id uuid primary key references lifts(id) on delete cascade,
  seq integer not null check (seq > 0)
);

-- The new permission `firmware` for the built-in roles of databases seeded before it (a fresh
-- database gets it from the seed): the administrator, and the manufacturer's engineers, who
-- upload and withdraw their organization's packages. A role that holds a `firmware` entry is
-- left alone.
update roles r
   set permissions = r.permissions || jsonb_build_array(jsonb_build_object(
         'permissionId', 'firmware',
         'actions', case r.name
           when 'administrator' then '["add","delete","edit","query","get","enable","disable","import","export"]'::jsonb
           else '["query","add","delete"]'::jsonb
         end,
         'scope', 'all'))
 where r.built_in
   and r.name in ('administrator', 'manufacturerEngineer')
   and not exists (select 1 from jsonb_array_elements(r.permissions) e where e->>'permissionId' = 'firmware');
