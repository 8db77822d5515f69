package io.ticketing.reservations.checkout;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The checkout page storefront teams copy ({@code src/main/resources/checkout}), served at {@code /checkout/} by the
 * run command and the tests only ({@code checkout-page.enabled}): production serves the API and nothing of a shop,
 * so the image and the Kubernetes manifests leave it off. Vert.x's static handler serves the files from the class
 * path.
 */
@Singleton
class CheckoutPage {

    static final String PATH = "/checkout/";

    private final boolean enabled;

    CheckoutPage(@ConfigProperty(name = "checkout-page.enabled", defaultValue = "false") boolean enabled) {
        this.enabled = enabled;
    }

    void install(@Observes Router router) {
        if (!enabled) {
            return;
        }
        // Relative links (checkout.js, checkout.css) need the trailing slash; Vert.x's "/checkout" matches with it too.
        router.route("/checkout").handler(context -> {
            if (context.request().path().equals("/checkout")) {
                context.redirect(PATH);
            } else {
                context.next();
            }
        });
        router.route(PATH + "*").handler(StaticHandler.create("checkout").setCachingEnabled(false));
    }
}
