-- API keys and review-UI sessions, shared by every replica (issue 17). Until now
-- each data directory kept its own keys in db/keys.sqlite3 and each process its
-- own UI sessions in memory. Only the SHA-256 of a key is stored (a raw key is
-- 256 random bits), never the key; a session row is keyed by the SHA-256 of its
-- cookie token, so a leaked table hands out neither keys nor cookies.
CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    role        text NOT NULL,
    namespaces  text NOT NULL,
    key_hash    text NOT NULL UNIQUE,
    hint        text NOT NULL,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz,
    sources     text,
    guard_roles text
);

-- `body` is the session as JSON (principal, CSRF secret, pending notices); the
-- times are seconds since the epoch, for expiry (idle and lifetime).
CREATE TABLE ui_sessions (
    digest      text PRIMARY KEY,
    key_id      text NOT NULL,
    created     double precision NOT NULL,
    seen        double precision NOT NULL,
    body        text NOT NULL
);
CREATE INDEX ui_sessions_key ON ui_sessions (key_id);
CREATE INDEX ui_sessions_seen ON ui_sessions (seen);
