package io.ticketing.reservations.inventory;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.http.Slugs;

/** Request bodies of the item, quota, seat and voucher endpoints. Prices are decimal strings, never floats. */
public final class InventoryRequests {

    static final String PRICE = "\\d{1,10}(\\.\\d{1,2})?";
    static final String PRICE_MESSAGE = "must be a decimal string such as \"49.90\", not negative";
    /** Larger than any venue; a bigger number is a typo. */
    public static final int MAX_QUOTA_SIZE = 10_000_000;
    /** One bulk request creates at most this many seats; a larger plan is sent in parts. */
    static final int MAX_SEATS_PER_REQUEST = 10_000;
    /** Different items one bundle brings. */
    static final int MAX_BUNDLED = 20;

    private InventoryRequests() {
    }

    /**
     * An item. {@code every_date}: a pass, one position counting on every date of an event with dates, on sale or not;
     * {@code bundle}: what one position of it brings, in the same claim (contract section 10); {@code prices}: its price
     * on dates where it differs, by date id.
     */
    public record NewItem(
            @NotBlank @Size(max = 200) String name,
            @Schema(example = "49.90") @NotNull @Pattern(regexp = PRICE, message = PRICE_MESSAGE) String price,
            Boolean requiresSeat,
            Boolean active,
            @Schema(nullable = true, description = "tickets of this item one buyer may hold and buy; null or absent: no limit") @Positive @Max(MAX_QUOTA_SIZE) Integer maxPerBuyer,
            @Schema(description = "a pass for every date; false if absent") Boolean everyDate,
            @Schema(nullable = true, description = "positions of other items each position of this one brings; they need no seat") @Size(max = MAX_BUNDLED) List<@Valid @NotNull Bundled> bundle,
            @Schema(nullable = true, description = "its price on dates where it differs, by date id", example = "{\"5\": \"12.50\"}") @Size(max = 1000) Map<Long, @NotNull @Pattern(regexp = PRICE, message = PRICE_MESSAGE) String> prices,
            @Schema(nullable = true, description = "the slugs of the sales channels it sells in; null or absent: every one", example = "[\"box-office\"]") @Size(min = 1, max = 50) List<@NotNull @Pattern(regexp = Slugs.PATTERN) String> channels) {
    }

    /** {@code count} positions of item {@code item_id} in each position of a bundle. */
    public record Bundled(
            @Schema(example = "3") @NotNull Long itemId,
            @Schema(example = "1") @NotNull @Min(1) @Max(100) Integer count) {
    }

    /** A quota; {@code date_id} puts it on one date of an event with dates (none: the whole event). */
    public record NewQuota(
            @NotBlank @Size(max = 200) String name,
            @Schema(nullable = true, description = "null or absent: unlimited", example = "100") @PositiveOrZero @Max(MAX_QUOTA_SIZE) Integer size,
            @Size(max = 1000) List<@NotNull Long> items,
            @Schema(nullable = true, description = "the date it limits; absent: the whole event") Long dateId) {
    }

    /** Seats in bulk; {@code date_id} is the date of every seat that names none. */
    public record NewSeats(@NotNull @Size(min = 1, max = MAX_SEATS_PER_REQUEST) List<@Valid @NotNull NewSeat> seats,
            @Schema(nullable = true, description = "the date of the seats that name none; absent: no date") Long dateId) {
    }

    /** {@code section}, {@code row} and {@code number} place the seat for best available: see {@code BestSeats}. */
    public record NewSeat(
            @Schema(example = "balcony-1") @NotBlank @Size(max = 100) String guid,
            @NotBlank @Size(max = 200) String name,
            @NotNull Long itemId,
            Boolean blocked,
            @Schema(example = "Balcony", nullable = true) @Size(min = 1, max = 100) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String section,
            @Schema(example = "B", nullable = true) @Size(min = 1, max = 100) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String row,
            @Schema(example = "12", nullable = true, description = "adjacent seats have consecutive numbers in one section and row") @PositiveOrZero @Max(MAX_QUOTA_SIZE) Integer number,
            @Schema(nullable = true, description = "the date of an event with dates it belongs to; a guid is unique within its date") Long dateId,
            @Schema(nullable = true, description = "the slugs of the sales channels it is kept for, which alone sell it; null or absent: every one") @Size(min = 1, max = 50) List<@NotNull @Pattern(regexp = Slugs.PATTERN) String> channels) {
    }

    /** A voucher; with a seat and no item it is restricted to the seat's item. */
    public record NewVoucher(
            @Schema(example = "FRIENDS") @NotBlank @Size(max = 100) @Pattern(regexp = "[A-Za-z0-9_.-]+", message = "may hold letters, digits, '-', '_' and '.'") String code,
            @Min(1) @Max(MAX_QUOTA_SIZE) Integer maxUsages,
            Instant validUntil,
            Long itemId,
            Long quotaId,
            @Size(min = 1, max = 100) String seatGuid,
            Boolean blockQuota,
            @Schema(nullable = true, description = "the one date it is valid on (and blocks on); absent: any") Long dateId) {
    }

    /** A PATCH of a quota: absent fields stay; {@code "size": null} makes the quota unlimited. */
    public record QuotaChanges(
            @Size(min = 1, max = 200) String name,
            @Schema(nullable = true, description = "null: unlimited; absent: unchanged") Optional<@PositiveOrZero @Max(MAX_QUOTA_SIZE) Integer> size,
            @Size(max = 1000) List<@NotNull Long> items) {
    }

    /** A PATCH of an item: absent fields stay. A new price applies to holds taken from now on. */
    public record ItemChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name,
            @Pattern(regexp = PRICE, message = PRICE_MESSAGE) String price,
            Boolean active,
            @Schema(nullable = true, description = "null: no limit; absent: unchanged") Optional<@Positive @Max(MAX_QUOTA_SIZE) Integer> maxPerBuyer,
            @Schema(nullable = true, description = "by date id: a price sets it on that date, null removes it") @Size(max = 1000) Map<Long, @Pattern(regexp = PRICE, message = PRICE_MESSAGE) String> prices,
            @Schema(nullable = true, description = "the slugs of the sales channels it sells in; null: every one; absent: unchanged") Optional<@Size(min = 1, max = 50) List<@NotNull @Pattern(regexp = Slugs.PATTERN) String>> channels) {
    }

    /** A PATCH of a seat: absent fields stay. Blocking a held or sold seat is 409 {@code seat_unavailable}. */
    public record SeatChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name,
            Boolean blocked,
            @Schema(nullable = true, description = "the slugs of the sales channels it is kept for; null: every one; absent: unchanged") Optional<@Size(min = 1, max = 50) List<@NotNull @Pattern(regexp = Slugs.PATTERN) String>> channels) {
    }

    /** A PATCH of a voucher: absent fields stay; {@code "valid_until": null} removes the expiry. */
    public record VoucherChanges(
            @Min(1) @Max(MAX_QUOTA_SIZE) Integer maxUsages,
            @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2026-12-31T23:00:00Z", description = "null: never expires; absent: unchanged") Optional<Instant> validUntil,
            Boolean blockQuota) {
    }
}
