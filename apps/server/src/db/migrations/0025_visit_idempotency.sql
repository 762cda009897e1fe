-- No duplicate visits (docs/service.md, "Maintenance plans and visits"): the visit form makes
-- one key per visit and sends it with every try. The key is unique per technician, as a
-- command's click is per user (migration 0016): a key comes from one person's browser, so a
-- repeat of it is that person's retry; another user's key never finds (or reveals) someone
-- else's visit, whatever the lift. `request_digest` is the digest of the request as sent (the
-- key left out): a repeat of the key with another request is a conflict, not a second visit.
-- Visits recorded before, and by clients without a key, have none.
alter table maintenance_visits add column idempotency_key text;
alter table maintenance_visits add column request_digest text;
create unique index maintenance_visits_idempotency_idx on maintenance_visits (technician_id, idempotency_key) where idempotency_key is not null;
