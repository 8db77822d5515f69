package io.ticketing.reservations.organizer;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.ApiTokens;
import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;

/**
 * Organizers and their API tokens (contract section 11). The platform's tokens manage every organizer; an
 * organizer's admin token, if it is not limited to some events, manages its own organizer's tokens. Another
 * organizer answers 404, as one that does not exist.
 */
@ApplicationScoped
public class OrganizerService {

    private final Access access;
    private final TokenRows tokens;
    private final KnownChannels channels;
    /** Known to this replica once the transaction commits ({@link ApiTokens}). */
    private final Event<ApiTokens.Entry> changedTokens;

    OrganizerService(Access access, TokenRows tokens, KnownChannels channels, Event<ApiTokens.Entry> changedTokens) {
        this.access = access;
        this.channels = channels;
        this.tokens = tokens;
        this.changedTokens = changedTokens;
    }

    @Transactional
    public Organizer create(OrganizerRequests.NewOrganizer request) {
        if (Organizer.findBySlug(request.slug()).isPresent()) {
            throw Taken.organizer(request.slug());
        }
        Organizer organizer = new Organizer();
        organizer.slug = request.slug();
        organizer.name = request.name().strip();
        organizer.persistAndFlush();
        Organizer.getEntityManager().refresh(organizer);
        return organizer;
    }

    /** Organizers in the order they were made. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<OrganizerView> list(PageRequest page) {
        List<Organizer> organizers = Organizer.<Organizer>find("id > ?1 order by id", page.afterAscending())
                .range(0, page.fetchSize() - 1).list();
        return Page.of(organizers, page, organizer -> organizer.id).map(OrganizerView::of);
    }

    /** The organizer, if the caller reaches all of it; else 404, as one that does not exist. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Organizer get(String slug) {
        return Organizer.findBySlug(slug)
                .filter(organizer -> access.caller().map(caller -> caller.reachesAllOf(organizer.id)).orElse(true))
                .orElseThrow(() -> new NotFoundException("organizer", slug));
    }

    @Transactional
    public Organizer update(String slug, IfMatch ifMatch, OrganizerRequests.OrganizerChanges changes) {
        Organizer organizer = get(slug);
        ifMatch.check(organizer.version);
        if (changes.name() != null) {
            organizer.name = changes.name().strip();
        }
        organizer.flush();
        return organizer;
    }

    /**
     * A new token of the organizer: its secret is answered once and kept only as a hash. Its events must be the
     * organizer's (else 404), and so must its channel (default {@code web}); an organizer's own token may not make one
     * that reaches more than itself.
     */
    @Transactional
    public TokenView createToken(String organizerSlug, OrganizerRequests.NewToken request) {
        Organizer organizer = get(organizerSlug);
        Set<Long> events = null;
        if (request.events() != null) {
            Set<String> slugs = new LinkedHashSet<>(request.events());
            events = new LinkedHashSet<>(tokens.eventsOf(organizer.id, List.copyOf(slugs)));
            if (events.size() != slugs.size()) {
                throw new NotFoundException("event", String.join(", ", slugs));
            }
        }
        String channel = request.channel() == null ? Caller.WEB_CHANNEL : request.channel();
        channels.require(organizer.id, List.of(channel));
        ApiTokens.Secret secret = ApiTokens.newSecret();
        TokenRows.Stored stored = tokens.insert(organizer.id, request, events, channel, secret);
        changedTokens.fire(stored.entry());
        return new TokenView(stored.entry().id(), request.name().strip(), request.scope(),
                request.events() == null ? null : List.copyOf(new LinkedHashSet<>(request.events())),
                request.expiresAt(), secret.prefix(), stored.createdAt(), null, channel, secret.token());
    }

    /** The organizer's tokens in use, oldest first, without their secrets. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<TokenView> tokens(String organizerSlug, PageRequest page) {
        Organizer organizer = get(organizerSlug);
        return Page.of(tokens.page(organizer.id, page.afterAscending(), page.fetchSize()), page, TokenView::id);
    }

    /** Revoked at once on this replica, and on every other within two seconds. */
    @Transactional
    public void revoke(String organizerSlug, long tokenId) {
        Organizer organizer = get(organizerSlug);
        changedTokens.fire(tokens.revoke(organizer.id, tokenId)
                .orElseThrow(() -> new NotFoundException("token", tokenId)));
    }
}
