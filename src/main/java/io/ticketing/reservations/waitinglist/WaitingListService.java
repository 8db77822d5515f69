package io.ticketing.reservations.waitinglist;

import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.availability.StorefrontAvailability;
import io.ticketing.reservations.buyer.BuyerTokens;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.dates.EventDate;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.inventory.FreedCapacity;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.limits.HolderLimits;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;

/**
 * The waiting list (contract section 9): buyers join the list of an item that cannot sell what they want; what frees
 * up is offered to them in order ({@link Offers}). Joining, leaving and reading take no inventory lock: a waiting
 * entry makes nothing scarcer that was sold or held, and an offer, which does, is made under the locks. Joining
 * locks the client and the buyer it counts ({@link HolderLimits}).
 */
@ApplicationScoped
public class WaitingListService {

    private final WaitingListRows rows;
    private final WaitingListViews views;
    private final StorefrontAvailability availability;
    private final FreedCapacity freed;
    private final BuyerTokens buyers;
    private final HolderLimits limits;
    private final HolderLimits.Limit entryLimit;

    WaitingListService(WaitingListRows rows, WaitingListViews views, StorefrontAvailability availability,
            FreedCapacity freed,
            BuyerTokens buyers, HolderLimits limits,
            @ConfigProperty(name = "waiting-list.entries-per-client") int entriesPerClient,
            @ConfigProperty(name = "waiting-list.entries-per-buyer") int entriesPerBuyer) {
        this.entryLimit = new HolderLimits.Limit(entriesPerClient, entriesPerBuyer, "too_many_entries",
                "waiting list entries", "wait for an offer to the ones you have, or leave one");
        this.rows = rows;
        this.views = views;
        this.availability = availability;
        this.freed = freed;
        this.buyers = buyers;
        this.limits = limits;
    }

    /**
     * A new waiting entry, if the list is on (else 409 {@code waiting_list_off}), the item is sold without seats and on
     * sale in the caller's channel but for capacity (else 409 {@code item_unavailable}: an entry of an item off sale is
     * never offered, and would keep from the items beside it what it waits for; an offer of places could not hold the
     * seats a seated item needs, as pretix's waiting list does not take seated products), one buyer may have the quantity (else 409
     * {@code buyer_limit}: its offer could never be bought), the channel cannot add the quantity now, by the count an
     * add is judged by (else 409 {@code item_available}; contract section 3: what a bundle brings counts, and seats),
     * {@code client} and the buyer hold fewer open entries of the event than they may (else 429
     * {@code too_many_entries}), and no entry of this email waits for the item or holds its offer (else 409
     * {@code already_waiting}, also from the unique index when two race).
     */
    @DurableTransaction
    public WaitingListView join(Event event, String client, String channel, WaitingListRequests.Join request) {
        if (!event.waitingListEnabled) {
            throw WaitingListConflict.off(event);
        }
        if (EventDate.count("eventId", event.id) > 0) {
            throw WaitingListConflict.dated(event);
        }
        Item item = Item.findInEvent(event.id, request.itemId())
                .orElseThrow(() -> new NotFoundException("item", request.itemId()));
        if (item.requiresSeat) {
            throw WaitingListConflict.seated(item);
        }
        StorefrontAvailability.WhatIsLeft left = availability.leftOf(event, item.id, channel);
        if (left.notOnSale() != null) {
            throw WaitingListConflict.itemUnavailable(item, left.notOnSale());
        }
        int wanted = request.places();
        for (Integer limit : new Integer[]{item.maxPerBuyer, event.maxPerBuyer}) {
            if (limit != null && wanted > limit) {
                throw WaitingListConflict.pastBuyerLimit(item, limit, wanted);
            }
        }
        if (left.number() == null || left.number() >= wanted) {
            throw WaitingListConflict.itemAvailable(item, left.number());
        }
        String buyer = buyers.buyer(event, request.buyer(), request.buyerToken());
        limits.requireRoom(event, entryLimit, client, buyer, holder -> rows.openOfClient(event.id, holder),
                holder -> rows.openOfBuyer(event.id, holder));
        if (EventDate.count("eventId", event.id) > 0) {
            // Judged again under the event's lock, which a first date takes exclusively: it may have come meanwhile.
            throw WaitingListConflict.dated(event);
        }
        return views.of(rows.insert(RandomIds.next(), event.id, item.id, wanted, request.email().strip(), buyer,
                client));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public WaitingListView get(Event event, String id) {
        return views.of(entry(event, id));
    }

    /**
     * Leaves the list: a waiting entry is canceled, an offered one too, and its offer stops blocking at once. What
     * that frees goes to the next entries. An entry already over (redeemed, expired, canceled) stays as it is.
     */
    @Transactional
    public void cancel(Event event, String id) {
        WaitingListRows.Entry entry = rows.lock(event.id, id).orElseThrow(() -> new NotFoundException("entry", id));
        if (entry.status() == WaitingListRows.Status.WAITING || entry.status() == WaitingListRows.Status.OFFERED) {
            rows.cancel(id);
            freed.of(event);
        }
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<WaitingListView> list(Event event, String status, Long itemId, PageRequest page) {
        WaitingListRows.Status wanted = null;
        if (status != null) {
            try {
                wanted = WaitingListRows.Status.of(status);
            } catch (IllegalArgumentException e) {
                throw new ValidationException("status", "must be one of waiting, offered, redeemed, expired, canceled");
            }
        }
        return Page.of(rows.list(event.id, wanted, itemId, page.afterAscending(), page.fetchSize()), page,
                WaitingListRows.Entry::seq).map(views::of);
    }

    /** An admin moves an entry in its item's queue; a head that moved may fit what is free, so offers run again. */
    @Transactional
    public WaitingListView changePriority(Event event, String id, IfMatch ifMatch,
            WaitingListRequests.EntryChanges changes) {
        WaitingListRows.Entry entry = rows.lock(event.id, id).orElseThrow(() -> new NotFoundException("entry", id));
        ifMatch.check(entry.version());
        if (!Objects.equals(entry.priority(), changes.priority())) {
            rows.setPriority(id, changes.priority());
            freed.of(event);
        }
        return views.of(entry(event, id));
    }

    private WaitingListRows.Entry entry(Event event, String id) {
        return rows.find(event.id, id).orElseThrow(() -> new NotFoundException("entry", id));
    }

}
