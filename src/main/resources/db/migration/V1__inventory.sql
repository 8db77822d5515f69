-- What the service sells (SPEC section 1). Every rule the database can hold is a constraint here, so a
-- bug in the service fails loudly instead of corrupting inventory. Ids are bigint identities below 2^56
-- so that they fit the advisory lock key layout (see locking/LockTarget.java).

CREATE TABLE events (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug                 text        NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,49}$'),
    name                 text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    currency             text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    cart_ttl_seconds     integer     NOT NULL DEFAULT 1800 CHECK (cart_ttl_seconds > 0),
    payment_term_seconds integer     NOT NULL DEFAULT 1209600 CHECK (payment_term_seconds > 0),
    version              bigint      NOT NULL DEFAULT 0,
    created_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE items (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id      bigint        NOT NULL REFERENCES events (id),
    name          text          NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    price         numeric(12,2) NOT NULL CHECK (price >= 0),
    requires_seat boolean       NOT NULL DEFAULT false,
    active        boolean       NOT NULL DEFAULT true,
    version       bigint        NOT NULL DEFAULT 0
);
CREATE INDEX items_event ON items (event_id);

-- size NULL means unlimited: such a quota is never locked and never runs out.
CREATE TABLE quotas (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id bigint  NOT NULL REFERENCES events (id),
    name     text    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    size     integer CHECK (size >= 0),
    version  bigint  NOT NULL DEFAULT 0
);
CREATE INDEX quotas_event ON quotas (event_id);

CREATE TABLE quota_items (
    quota_id bigint NOT NULL REFERENCES quotas (id) ON DELETE CASCADE,
    item_id  bigint NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    PRIMARY KEY (quota_id, item_id)
);
-- "Which quotas does this item consume?" is asked on every add to cart.
CREATE INDEX quota_items_item ON quota_items (item_id, quota_id);

CREATE TABLE seats (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id bigint  NOT NULL REFERENCES events (id),
    guid     text    NOT NULL CHECK (length(guid) BETWEEN 1 AND 100),
    name     text    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    item_id  bigint  NOT NULL REFERENCES items (id),
    blocked  boolean NOT NULL DEFAULT false,
    version  bigint  NOT NULL DEFAULT 0,
    UNIQUE (event_id, guid)
);
CREATE INDEX seats_item ON seats (item_id);

CREATE TABLE vouchers (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id    bigint      NOT NULL REFERENCES events (id),
    code        text        NOT NULL CHECK (length(code) BETWEEN 1 AND 100),
    max_usages  integer     NOT NULL DEFAULT 1 CHECK (max_usages >= 1),
    redeemed    integer     NOT NULL DEFAULT 0 CHECK (redeemed >= 0),
    valid_until timestamptz,
    item_id     bigint REFERENCES items (id),
    quota_id    bigint REFERENCES quotas (id),
    seat_id     bigint REFERENCES seats (id),
    block_quota boolean     NOT NULL DEFAULT false,
    version     bigint      NOT NULL DEFAULT 0,
    CHECK (item_id IS NULL OR quota_id IS NULL)
);
CREATE UNIQUE INDEX vouchers_event_code ON vouchers (event_id, lower(code));
-- Blocking vouchers are counted against their quota on every availability check.
CREATE INDEX vouchers_blocking_item ON vouchers (item_id) WHERE block_quota;
CREATE INDEX vouchers_blocking_quota ON vouchers (quota_id) WHERE block_quota;
CREATE INDEX vouchers_seat ON vouchers (seat_id) WHERE seat_id IS NOT NULL;

-- The id is the cart's only credential: at least 128 random bits, made by the service.
CREATE TABLE carts (
    id         text        PRIMARY KEY CHECK (length(id) >= 22),
    event_id   bigint      NOT NULL REFERENCES events (id),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX carts_event ON carts (event_id);

CREATE TABLE cart_positions (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cart_id    text          NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    item_id    bigint        NOT NULL REFERENCES items (id),
    seat_id    bigint REFERENCES seats (id),
    voucher_id bigint REFERENCES vouchers (id),
    price      numeric(12,2) NOT NULL CHECK (price >= 0),
    expires    timestamptz   NOT NULL
);
CREATE INDEX cart_positions_cart ON cart_positions (cart_id);
-- A position counts while expires >= now(): these ranges make the counts independent of old carts.
CREATE INDEX cart_positions_item_expires ON cart_positions (item_id, expires);
CREATE INDEX cart_positions_seat_expires ON cart_positions (seat_id, expires) WHERE seat_id IS NOT NULL;
CREATE INDEX cart_positions_voucher_expires ON cart_positions (voucher_id, expires) WHERE voucher_id IS NOT NULL;
-- Cart clean-up looks for carts whose positions have all run out.
CREATE INDEX cart_positions_expires ON cart_positions (expires);

CREATE TABLE orders (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id   bigint      NOT NULL REFERENCES events (id),
    code       text        NOT NULL UNIQUE CHECK (length(code) >= 16),
    email      text        NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    status     text        NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'canceled')),
    expires    timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    version    bigint      NOT NULL DEFAULT 0
);
CREATE INDEX orders_event ON orders (event_id);
-- The expiry job's lock-free candidate query.
CREATE INDEX orders_pending_expires ON orders (expires) WHERE status = 'pending';

CREATE TABLE order_positions (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id   bigint        NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    item_id    bigint        NOT NULL REFERENCES items (id),
    seat_id    bigint REFERENCES seats (id),
    voucher_id bigint REFERENCES vouchers (id),
    price      numeric(12,2) NOT NULL CHECK (price >= 0)
);
CREATE INDEX order_positions_order ON order_positions (order_id);
CREATE INDEX order_positions_item ON order_positions (item_id, order_id);
CREATE INDEX order_positions_seat ON order_positions (seat_id, order_id) WHERE seat_id IS NOT NULL;
