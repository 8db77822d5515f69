package io.ticketing.reservations.organizer;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.InUseException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;

/**
 * An organizer's sales channels (contract section 12), managed by the organizer's admins. A channel that anything
 * names (a token in use, an item, a seat, an allotment) or that sold anything cannot be deleted: its slug is history in carts and
 * orders, and a new channel of the same slug would inherit it. {@code web} is never deleted.
 */
@ApplicationScoped
public class ChannelService {

    /** {@code <> 'web'} lets a generic plan use the partial indexes of non-web carts and orders by event (V24). */
    private static final String IN_USE = """
            SELECT EXISTS (SELECT 1 FROM api_tokens t WHERE t.organizer_id = :organizer AND t.channel = :slug
                             AND t.revoked_at IS NULL)
              OR EXISTS (SELECT 1 FROM items i JOIN events e ON e.id = i.event_id
                         WHERE e.organizer_id = :organizer AND :slug = ANY(i.channels))
              OR EXISTS (SELECT 1 FROM seats s JOIN events e ON e.id = s.event_id
                         WHERE e.organizer_id = :organizer AND :slug = ANY(s.channels))
              OR EXISTS (SELECT 1 FROM allotments a JOIN events e ON e.id = a.event_id
                         WHERE e.organizer_id = :organizer AND a.channel = :slug)
              OR EXISTS (SELECT 1 FROM carts c JOIN events e ON e.id = c.event_id
                         WHERE c.channel = :slug AND c.channel <> 'web' AND e.organizer_id = :organizer)
              OR EXISTS (SELECT 1 FROM orders o JOIN events e ON e.id = o.event_id
                         WHERE o.channel = :slug AND o.channel <> 'web' AND e.organizer_id = :organizer)""";

    private final OrganizerService organizers;
    private final Jdbc jdbc;

    ChannelService(OrganizerService organizers, Jdbc jdbc) {
        this.organizers = organizers;
        this.jdbc = jdbc;
    }

    @Transactional
    public Channel create(String organizerSlug, ChannelRequests.NewChannel request) {
        Organizer organizer = organizers.get(organizerSlug);
        if (Channel.find(organizer.id, request.slug()).isPresent()) {
            throw Taken.channel(request.slug());
        }
        Channel channel = new Channel();
        channel.organizerId = organizer.id;
        channel.slug = request.slug();
        channel.name = request.name().strip();
        channel.persistAndFlush();
        Channel.getEntityManager().refresh(channel);
        return channel;
    }

    /** The organizer's channels in the order they were made. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<ChannelView> list(String organizerSlug, PageRequest page) {
        Organizer organizer = organizers.get(organizerSlug);
        List<Channel> channels = Channel.<Channel>find("organizerId = ?1 and id > ?2 order by id", organizer.id,
                page.afterAscending()).range(0, page.fetchSize() - 1).list();
        return Page.of(channels, page, channel -> channel.id).map(ChannelView::of);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Channel get(String organizerSlug, String slug) {
        return Channel.find(organizers.get(organizerSlug).id, slug)
                .orElseThrow(() -> new NotFoundException("channel", slug));
    }

    @Transactional
    public Channel update(String organizerSlug, String slug, IfMatch ifMatch, ChannelRequests.ChannelChanges changes) {
        Channel channel = get(organizerSlug, slug);
        ifMatch.check(channel.version);
        if (changes.name() != null) {
            channel.name = changes.name().strip();
        }
        channel.flush();
        return channel;
    }

    @Transactional
    public void delete(String organizerSlug, String slug) {
        Channel channel = get(organizerSlug, slug);
        if (Caller.WEB_CHANNEL.equals(channel.slug)) {
            throw new InUseException("The web channel is every organizer's: it cannot be deleted.");
        }
        boolean used = jdbc.statement(IN_USE).set("organizer", channel.organizerId).set("slug", channel.slug)
                .list(row -> row.getBoolean(1)).get(0);
        if (used) {
            throw new InUseException(
                    "Channel '" + slug + "' is named by a token, an item, a seat or an allotment, or sold"
                            + " something; it cannot be deleted.");
        }
        channel.delete();
    }
}
