package io.ticketing.reservations.event;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/** Creates the demo event the README's examples use, when {@code demo.enabled} (the local run command). */
@ApplicationScoped
class DemoEvent {

    static final String SLUG = "demo-concert";

    private static final Logger LOG = Logger.getLogger(DemoEvent.class);

    @ConfigProperty(name = "demo.enabled", defaultValue = "false")
    boolean enabled;

    @Transactional
    void createOnStart(@Observes StartupEvent startup) {
        if (!enabled || Event.findBySlug(SLUG).isPresent()) {
            return;
        }
        Event event = new Event();
        event.slug = SLUG;
        event.name = "Demo Concert";
        event.currency = "EUR";
        event.persist();
        LOG.infof("created the demo event '%s'", SLUG);
    }
}
