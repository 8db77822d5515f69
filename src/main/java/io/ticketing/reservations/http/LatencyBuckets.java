package io.ticketing.reservations.http;

import java.time.Duration;
import java.util.stream.Stream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * Request times as a histogram with a few fixed buckets, so that Prometheus can compute the p99 across replicas
 * (the alert and the dashboard in k8s/): a handful of buckets per URI and status rather than Micrometer's 70.
 */
@Singleton
public class LatencyBuckets {

    private static final double[] BOUNDS = Stream.of(25, 50, 100, 250, 500, 1000, 2500, 5000)
            .mapToDouble(millis -> Duration.ofMillis(millis).toNanos()).toArray();

    @Produces
    @Singleton
    MeterFilter httpServerRequestBuckets() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals("http.server.requests")) {
                    return config;
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(BOUNDS).build().merge(config);
            }
        };
    }
}
