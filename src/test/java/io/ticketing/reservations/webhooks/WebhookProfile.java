package io.ticketing.reservations.webhooks;

import java.util.List;

import io.quarkus.test.junit.QuarkusTestProfile;

/** The app with webhooks on, pointed at a {@link WebhookReceiver} the test controls. */
public class WebhookProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(WebhookReceiver.class));
    }
}
