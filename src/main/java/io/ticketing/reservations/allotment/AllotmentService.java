package io.ticketing.reservations.allotment;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.inventory.CapacityGuard;
import io.ticketing.reservations.inventory.FreedCapacity;
import io.ticketing.reservations.inventory.Quota;
import io.ticketing.reservations.inventory.QuotaService;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.organizer.KnownChannels;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;

/**
 * Allotments of a quota (contract section 12). Making one, or making one keep more (a larger size, a later or no
 * release time), makes capacity scarcer: the guard locks the quota and judges the write by the one rule, so an
 * allotment that what is left for everyone cannot cover is 409 {@code quota_exhausted} and nothing is written.
 * Keeping less frees capacity and takes no lock. A release time passing needs no job: the count reads the clock.
 */
@ApplicationScoped
public class AllotmentService {

    private final QuotaService quotas;
    private final KnownChannels channels;
    private final CapacityGuard guard;
    private final FreedCapacity freed;
    private final Clock clock;

    AllotmentService(QuotaService quotas, KnownChannels channels, CapacityGuard guard, FreedCapacity freed,
            Clock clock) {
        this.clock = clock;
        this.quotas = quotas;
        this.channels = channels;
        this.guard = guard;
        this.freed = freed;
    }

    @DurableTransaction
    public Allotment create(Event event, long quotaId, AllotmentRequests.NewAllotment request) {
        Quota quota = quotas.quota(event, quotaId);
        channels.require(event.organizerId, List.of(request.channel()));
        if (Allotment.findForChannel(quota.id, request.channel()).isPresent()) {
            throw Taken.allotment(request.channel());
        }
        Allotment allotment = new Allotment();
        allotment.eventId = event.id;
        allotment.quotaId = quota.id;
        allotment.channel = request.channel();
        allotment.size = request.size();
        allotment.releaseAt = request.releaseAt();
        guard.reserveForAllotment(quota, allotment::persistAndFlush);
        Allotment.getEntityManager().refresh(allotment);
        return allotment;
    }

    /** The quota's allotments in the order they were made, released ones too. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<AllotmentView> list(Event event, long quotaId, PageRequest page) {
        Quota quota = quotas.quota(event, quotaId);
        List<Allotment> allotments = Allotment.<Allotment>find("quotaId = ?1 and id > ?2 order by id", quota.id,
                page.afterAscending()).range(0, page.fetchSize() - 1).list();
        return Page.of(allotments, page, allotment -> allotment.id).map(AllotmentView::of);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Allotment get(Event event, long quotaId, long allotmentId) {
        return Allotment.findInQuota(quotas.quota(event, quotaId).id, allotmentId)
                .orElseThrow(() -> new NotFoundException("allotment", allotmentId));
    }

    @DurableTransaction
    public Allotment update(Event event, long quotaId, long allotmentId, IfMatch ifMatch,
            AllotmentRequests.AllotmentChanges changes) {
        Quota quota = quotas.quota(event, quotaId);
        Allotment allotment = get(event, quotaId, allotmentId);
        ifMatch.check(allotment.version);
        int size = changes.size() == null ? allotment.size : changes.size();
        Instant releaseAt = changes.releaseAt() == null ? allotment.releaseAt : changes.releaseAt().orElse(null);
        Instant now = clock.instant();
        boolean keptBefore = Allotment.keepsAt(allotment.releaseAt, now);
        boolean keptAfter = Allotment.keepsAt(releaseAt, now);
        boolean keepsMore = keptAfter && (!keptBefore || size > allotment.size);
        boolean keepsLess = keptBefore && (!keptAfter || size < allotment.size);
        Runnable write = () -> {
            allotment.size = size;
            allotment.releaseAt = releaseAt;
            allotment.flush();
        };
        if (keepsMore) {
            guard.reserveForAllotment(quota, write);
        } else {
            write.run();
        }
        if (keepsLess) {
            freed.of(event);
        }
        return allotment;
    }

    /** Deleting frees what it kept at once; it takes no lock. */
    @Transactional
    public void delete(Event event, long quotaId, long allotmentId) {
        get(event, quotaId, allotmentId).delete();
        freed.of(event);
    }
}
