-- Permissions carry a scope (own / served / all: packages/protocol access/permission-rules.ts).
-- Until now which lifts a role reached came from its free-text role_type ('admin': every
-- lift; anything else: the lifts of the user's organization), which now grants nothing.
-- Each stored entry gets the scope that keeps what the role may do exactly as before:
--   role_type 'admin'                         -> 'all' on every entry;
--   any other role, lift permissions          -> 'served' (the organization's lifts:
--                                                 made by it, or assigned to it);
--   any other role, users/roles/orgs/documents -> 'all' (they were never limited).
-- Entries that already have a scope keep it, so running this on scoped data changes nothing.
update roles r
   set permissions = coalesce((
     select jsonb_agg(
              case when e.p ? 'scope' then e.p
                   else e.p || jsonb_build_object('scope',
                     case when r.role_type = 'admin'
                            or e.p->>'permissionId' not in ('dashboard', 'lift', 'liftControl', 'liftConfig', 'operationLog', 'alert', 'manufacture')
                          then 'all' else 'served' end)
              end
              order by e.ord)
       from jsonb_array_elements(r.permissions) with ordinality as e(p, ord)
   ), '[]'::jsonb);
