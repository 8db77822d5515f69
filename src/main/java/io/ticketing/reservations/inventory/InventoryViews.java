package io.ticketing.reservations.inventory;

import java.util.List;

/** Response bodies of the item and quota endpoints. */
public final class InventoryViews {

    private InventoryViews() {
    }

    public record ItemView(long id, String name, String price, boolean requiresSeat, boolean active, long version) {
        static ItemView of(Item item) {
            return new ItemView(item.id, item.name, item.price.toPlainString(), item.requiresSeat, item.active,
                    item.version);
        }
    }

    public record ItemList(List<ItemView> items) {
    }

    public record QuotaView(long id, String name, Integer size, List<Long> items, long version) {
        static QuotaView of(Quota quota) {
            return new QuotaView(quota.id, quota.name, quota.size, quota.itemIds.stream().sorted().toList(),
                    quota.version);
        }
    }
}
