-- Request counts of the global rate limit, shared by every server instance (PostgreSQL
-- mode). Unlogged: a crash may forget the counts of the current minute, which is harmless,
-- and the table costs no WAL.
create unlogged table rate_limit_hits (
  key text primary key,
  hits integer not null,
  reset_at timestamptz not null
);
