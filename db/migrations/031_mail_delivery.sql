-- Mail that cannot be delivered (docs/decisions/0083-mail-delivery.md).
--
-- An address a receiving server refused for good (a 5xx answer to RCPT or DATA), or that kept
-- failing for 24 hours. Keyed by the address in lower case, not by member: mail also goes to
-- visitors (contact replies), and a member who changes their address is free of the mark at once.
-- No mail goes to an address listed here until staff clear it.
CREATE TABLE undeliverable_addresses (
  address    text        PRIMARY KEY CHECK (address = lower(address)),
  reason     text        NOT NULL,
  failed_at  timestamptz NOT NULL
);

-- Mail handed to the server, given up, and not sent because the address is undeliverable, per
-- UTC day: the console's Mail page shows them.
CREATE TABLE mail_daily_counts (
  day        date    PRIMARY KEY,
  sent       integer NOT NULL DEFAULT 0,
  failed     integer NOT NULL DEFAULT 0,
  suppressed integer NOT NULL DEFAULT 0
);
