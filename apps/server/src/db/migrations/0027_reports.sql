-- Scheduled reports (docs/reports.md): an organization's (site '') or one site's availability
-- report of a UTC month in one language, the PDF and the CSV kept as bytes like documents
-- (migration 0004). One report per organization, site, month and language: the monthly job
-- of two instances inserts it once, and a report built on demand replaces it.
create table reports (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references organizations (id) on delete cascade,
  -- 'org': the whole organization (site is ''); 'site': the lifts of one site.
  level text not null check (level in ('org', 'site')),
  site text not null default '',
  month text not null check (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  language text not null,
  pdf bytea not null,
  csv bytea not null,
  created_at timestamptz not null default now(),
  -- null: built by the monthly job.
  created_by uuid references users (id) on delete set null,
  check ((level = 'org') = (site = '')),
  unique (org_id, level, site, month, language)
);
create index reports_list_idx on reports (month desc, created_at desc);

-- The monthly mail (notification setting mailReport): a user's row for a month is inserted in
-- the transaction that mails it, so two instances mail a user once per month and a failed
-- send is tried again at the next run.
create table report_mail_marks (
  user_id uuid not null references users (id) on delete cascade,
  month text not null,
  sent_at timestamptz not null default now(),
  primary key (user_id, month)
);
