-- Sign-in with an OpenID Connect provider (docs/operations.md, "Sign-in with another provider").
-- The link of a provider's account (issuer + subject) to a LiftLink user.
create table if not exists oidc_identities (
  issuer text not null,
  subject text not null,
  user_id uuid not null references users(id) on delete cascade,
  provider text not null,
  email text,
  created_at timestamptz not null default now(),
  last_login_at timestamptz,
  primary key (issuer, subject)
);
create index if not exists oidc_identities_user_idx on oidc_identities (user_id);

-- A sign-in on its way through the provider: the state (hashed), the nonce and the PKCE
-- code verifier, bound to the browser that started it (hash of its flow cookie); used once.
create table if not exists oidc_logins (
  state_hash text primary key,
  browser_hash text not null,
  provider text not null,
  nonce text not null,
  code_verifier text not null,
  redirect text not null,
  remember boolean not null default true,
  expires_at timestamptz not null,
  used_at timestamptz
);

-- The hand-over of a finished sign-in to the web client: a one-time code in the redirect,
-- worth the session's token only together with that session's cookie.
create table if not exists oidc_handoffs (
  code_hash text primary key,
  session_id uuid not null references sessions(id) on delete cascade,
  remember boolean not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
