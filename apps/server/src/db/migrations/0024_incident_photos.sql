-- Photos on incidents (docs/service.md): stored like documents (migration 0004), the bytes in
-- the database with their type, size and SHA-256, and who added them when. Only JPEG, PNG and
-- WebP are stored (the server checks the bytes, not the name or the declared type). A photo
-- goes with its incident; an incident goes with its lift.
create table incident_photos (
  id uuid primary key default gen_random_uuid(),
  incident_id bigint not null references incidents(id) on delete cascade,
  content_type text not null check (content_type in ('image/jpeg', 'image/png', 'image/webp')),
  size integer not null check (size > 0),
  sha256 text not null,
  data bytea not null,
  added_by uuid references users(id) on delete set null,
  added_by_name text not null,
  added_at timestamptz not null default now()
);
create index incident_photos_incident_idx on incident_photos (incident_id, added_at, id);
