-- Push alerts (docs/decisions/0109-push-alerts.md). A member's browsers that agreed to push:
-- one row per push endpoint (a device's browser profile), which moves to whoever subscribed it
-- last. `p256dh` and `auth` are the browser's keys (base64url) the payload is encrypted to.

CREATE TABLE push_subscriptions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  -- "Chrome on Android": read from the User-Agent when subscribing, for the settings' list.
  device_label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

-- One message for one member, written in the transaction that writes what it tells of and sent
-- by the push.send job to each of the member's subscriptions.
CREATE TABLE push_messages (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  url text NOT NULL,
  tag text NOT NULL,
  urgency text NOT NULL CHECK (urgency IN ('very-low', 'low', 'normal', 'high')),
  ttl_seconds integer NOT NULL,
  -- When the deal it tells of became public (alert pushes): where the speed figure starts.
  public_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_messages_user_idx ON push_messages (user_id);
CREATE INDEX push_messages_created_idx ON push_messages (created_at);

-- Which subscriptions a message reached: a retried job sends only to the others.
CREATE TABLE push_deliveries (
  message_id bigint NOT NULL REFERENCES push_messages (id) ON DELETE CASCADE,
  subscription_id bigint NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (message_id, subscription_id)
);
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);

-- The speed figure: for each alert push that left, how long after its deal became public. Names
-- nobody, so it outlives messages and members; rows older than 30 days are swept.
CREATE TABLE push_timings (
  sent_at timestamptz NOT NULL DEFAULT now(),
  seconds real NOT NULL
);
CREATE INDEX push_timings_sent_idx ON push_timings (sent_at);
