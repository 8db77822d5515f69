package io.ticketing.reservations.inventory;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a quota has left, and why (contract section 1), what the waiting lists of its items on sale wait for (section
 * 9), and what its allotments in force keep for their channels (section 12). {@code size} and the number are null
 * when unlimited. The number is section 1's; what a buyer of a channel can take is {@link #leftFor}.
 */
public record QuotaAvailability(boolean available, @Schema(nullable = true) Integer availableNumber,
        @Schema(nullable = true) Integer size, long paidOrders,
        long pendingOrders, long cartPositions, long blockingVouchers,
        @Schema(description = "places the waiting list keeps back: its entries' quantities times the places one of their items takes here (what a bundle brings included), and what running offers of bundles keep for what they bring; what is left for anyone else is available_number less these") long waitingList,
        @Schema(description = "the allotments in force (release_at not passed): what each keeps for its channel") List<AllotmentUse> allotments) {

    /**
     * An allotment in force as counted: {@code used} is what its channel's live holds and pending and paid positions
     * use of it (those a blocking voucher covers are the voucher's), at most its size; {@code unused} what it still
     * keeps.
     */
    public record AllotmentUse(long id, String channel, int size, long used, long unused) {

        static AllotmentUse of(long id, String channel, int size, long positions) {
            long used = Math.min(positions, size);
            return new AllotmentUse(id, channel, size, used, size - used);
        }

        AllotmentUse usingMore(long positions) {
            return of(id, channel, size, used + positions);
        }
    }

    /**
     * The same quota with more held, per channel: what is left after claims decided before, in a batch. A channel's
     * positions use its allotment first, as the count does.
     */
    public QuotaAvailability holdingMore(Map<String, Long> positionsByChannel) {
        long positions = positionsByChannel.values().stream().mapToLong(Long::longValue).sum();
        if (positions == 0) {
            return this;
        }
        return of(size, paidOrders, pendingOrders, cartPositions + positions, blockingVouchers, waitingList,
                allotments.stream().map(a -> a.usingMore(positionsByChannel.getOrDefault(a.channel(), 0L))).toList());
    }

    /**
     * What a buyer of {@code channel} can take: its own allotment's unused part, then what is left for everyone
     * (section 1's number less every allotment's unused part), of which what the waiting list keeps back comes first
     * (contract sections 9 and 12). Running offers of the waiting list keep {@code offersKept} of {@link #waitingList}
     * for what their bundles bring, {@code ownOffer} of it for this buyer, who holds such an offer: an offer's part
     * comes before the entries still waiting (it was made when it fitted), and the buyer's own part is the buyer's.
     * Never below 0; null when unlimited. With no allotment and no offer running it is section 1's number less what the
     * waiting lists wait for.
     */
    public Integer leftFor(String channel, long ownOffer, long offersKept) {
        if (availableNumber == null) {
            return null;
        }
        long own = allotments.stream().filter(a -> a.channel().equals(channel)).mapToLong(AllotmentUse::unused).sum();
        long everyone = availableNumber - kept();
        long waiting = Math.max(0, waitingList - offersKept);
        long takenFirst = offersKept - ownOffer + Math.min(waiting, Math.max(0, everyone - offersKept));
        return (int) Math.max(0, own + everyone - Math.min(takenFirst, Math.max(everyone, 0)));
    }

    /** What a waiting-list offer can draw from: what no allotment keeps. Null when unlimited. */
    public Integer leftForEveryone() {
        return availableNumber == null ? null : (int) Math.max(0, availableNumber - kept());
    }

    /** What section 1 counts against the size: sold, held and blocked. */
    public long used() {
        return paidOrders + pendingOrders + cartPositions + blockingVouchers;
    }

    /**
     * What the quota has given or promised: {@link #used} and what allotments keep. A change that makes capacity
     * scarcer (a block, an allotment) must keep this within the size.
     */
    public long committed() {
        return used() + kept();
    }

    private long kept() {
        return allotments.stream().mapToLong(AllotmentUse::unused).sum();
    }

    static QuotaAvailability of(Integer size, long paid, long pending, long carts, long blocking, long waiting,
            List<AllotmentUse> allotments) {
        if (size == null) {
            return new QuotaAvailability(true, null, null, paid, pending, carts, blocking, waiting, allotments);
        }
        long left = Math.max(0, size - paid - pending - carts - blocking);
        return new QuotaAvailability(left > 0, (int) left, size, paid, pending, carts, blocking, waiting, allotments);
    }
}
