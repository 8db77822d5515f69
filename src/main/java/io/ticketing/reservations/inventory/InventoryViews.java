package io.ticketing.reservations.inventory;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Response bodies of the inventory endpoints. */
public final class InventoryViews {

    private InventoryViews() {
    }

    /** An item with what one position of it bundles and its prices on dates (contract section 10). */
    public record ItemView(long id, String name, String price, boolean requiresSeat, boolean active,
            @Schema(nullable = true) Integer maxPerBuyer, boolean everyDate, List<InventoryRequests.Bundled> bundle,
            Map<Long, String> prices,
            @Schema(nullable = true, description = "the sales channels it sells in; null: every one") List<String> channels,
            long version) {
        static ItemView of(Item item, List<InventoryRequests.Bundled> bundle, Map<Long, String> prices) {
            return new ItemView(item.id, item.name, item.price.toPlainString(), item.requiresSeat, item.active,
                    item.maxPerBuyer, item.everyDate, bundle, prices, item.channels, item.version);
        }
    }

    public record QuotaView(long id, String name, @Schema(nullable = true) Integer size, List<Long> items,
            @Schema(nullable = true) Long dateId, long version) {
        static QuotaView of(Quota quota) {
            return new QuotaView(quota.id, quota.name, quota.size, quota.itemIds.stream().sorted().toList(),
                    quota.dateId, quota.version);
        }
    }

    public record SeatView(String guid, String name, long itemId, @Schema(nullable = true) String section,
            @Schema(nullable = true) String row, @Schema(nullable = true) Integer number, boolean blocked,
            boolean available, long version, @Schema(nullable = true) Long dateId,
            @Schema(nullable = true, description = "the sales channels it is kept for, which alone sell it; null: every one") List<String> channels,
            @Schema(nullable = true, description = "where a seating plan draws it (contract section 13); null for a seat made without one") Double x,
            @Schema(nullable = true) Double y) {
    }

    public record SeatList(List<SeatView> seats) {
    }

    public record VoucherView(long id, String code, int maxUsages, int redeemed,
            @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2026-12-31T23:00:00Z") Instant validUntil,
            @Schema(nullable = true) Long itemId,
            @Schema(nullable = true) Long quotaId, @Schema(nullable = true) String seatGuid, boolean blockQuota,
            @Schema(nullable = true) Long dateId, long version) {
        static VoucherView of(Voucher voucher, String seatGuid) {
            return new VoucherView(voucher.id, voucher.code, voucher.maxUsages, voucher.redeemed, voucher.validUntil,
                    voucher.itemId, voucher.quotaId, seatGuid, voucher.blockQuota, voucher.dateId, voucher.version);
        }
    }

    /** {@code available_number} is null when nothing limits the item (only unlimited quotas, no seats). */
    public record ItemAvailability(long itemId, boolean available, @Schema(nullable = true) Integer availableNumber) {
    }

    public record EventAvailability(List<ItemAvailability> items) {
    }

    /** An active item as a ticket page shows it; {@code available_number} as in {@link ItemAvailability}. */
    public record CatalogItem(long itemId, String name, String price, boolean requiresSeat, boolean available,
            @Schema(nullable = true) Integer availableNumber) {
    }

    /** The event a ticket page is for: its heading and the currency of its prices. */
    public record CatalogEvent(String slug, String name, String currency) {
    }

    public record Catalog(CatalogEvent event, List<CatalogItem> items) {
    }
}
