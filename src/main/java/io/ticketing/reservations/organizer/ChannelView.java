package io.ticketing.reservations.organizer;

import java.time.Instant;

/** A channel as the API shows it. */
public record ChannelView(String slug, String name, Instant createdAt, long version) {

    static ChannelView of(Channel channel) {
        return new ChannelView(channel.slug, channel.name, channel.createdAt, channel.version);
    }
}
